// swift-tools-version: 6.1
// CacheLab's benchmarks (ordo-one/package-benchmark), a separate package so that the main
// package's build and CI never depend on the benchmark plugin. Run from the repository root:
//   bash Scripts/bench.sh
import PackageDescription

let package = Package(
  name: "CacheLabBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "CacheLab", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "CacheLabBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "CacheLabKit", package: "CacheLab"),
      ],
      path: "Benchmarks/CacheLabBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    )
  ]
)
