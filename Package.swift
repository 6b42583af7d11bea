// swift-tools-version: 6.1
// CacheLab: a cache-policy simulator and benchmark suite.
//
// Module layering (imports only point downward):
//   CacheCore                      vocabulary, policy protocol, slot storage, engine template
//   Policies  Traces  Stats(CGSL)  eviction policies / trace readers+writers (zstd, xz, gzip) / GSL statistics
//   Workloads  Analysis            synthetic trace generators; trace characterisation (Stats + Traces)
//   Replay                         one-pass multi-cache replayer, capacities, warm-up
//   Reports                        CSV + table output, atomic writes
//   CacheLabCLI -> cachelab        the command line
import PackageDescription

let package = Package(
  name: "CacheLab",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "cachelab", targets: ["cachelab"]),
    .library(name: "CacheLabKit", targets: ["CacheCore", "Policies", "Traces", "Engine", "Replay"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
  ],
  targets: [
    .target(name: "CPrefetch"),
    .target(name: "CacheCore", dependencies: ["CPrefetch"]),
    .target(name: "Policies", dependencies: ["CacheCore"]),
    .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .systemLibrary(name: "CLZMA", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(name: "Traces", dependencies: ["CacheCore", "CZstd", "CLZMA", "CZlib"]),
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
    ),
    .target(name: "Stats", dependencies: ["CGSL"]),
    .target(name: "Workloads", dependencies: ["CacheCore", "Traces", "Stats"]),
    .target(name: "Analysis", dependencies: ["CacheCore", "Traces", "Stats", "CGSL"]),
    .target(
      name: "Engine",
      dependencies: [
        "CacheCore", "Policies",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]
    ),
    .target(name: "Replay", dependencies: ["CacheCore", "Policies", "Traces", "Engine"]),
    .target(name: "Reports", dependencies: ["CacheCore", "Replay", "Stats"]),
    .target(
      name: "CacheLabCLI",
      dependencies: [
        "CacheCore", "Policies", "Traces", "Stats", "Workloads", "Analysis", "Engine", "Replay", "Reports",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "TOMLKit", package: "TOMLKit"),
      ]
    ),
    .executableTarget(name: "cachelab", dependencies: ["CacheLabCLI"]),
    .target(
      name: "TestSupport",
      dependencies: ["CacheCore", "Traces"],
      path: "Tests/TestSupport"
    ),
    .target(name: "MallocCounter", path: "Tests/MallocCounter"),
    .testTarget(name: "CacheCoreTests", dependencies: ["CacheCore", "TestSupport"]),
    .testTarget(
      name: "PoliciesTests",
      dependencies: ["CacheCore", "Policies", "Replay", "Traces", "TestSupport"]
    ),
    .testTarget(name: "TracesTests", dependencies: ["CacheCore", "Traces", "TestSupport"]),
    .testTarget(
      name: "StatsTests", dependencies: ["CacheCore", "Stats", "Workloads", "Analysis", "Traces", "TestSupport"]),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "CacheCore", "Policies", "Traces", "Engine", "Replay", "Reports", "Stats", "Workloads", "TestSupport",
        "MallocCounter",
      ]
    ),
    .testTarget(name: "FoundationOracleTests", dependencies: ["CacheCore", "Policies", "Engine"]),
    .testTarget(
      name: "EngineTests", dependencies: ["CacheCore", "Engine", "Policies", "Traces", "TestSupport", "cachelab"]),
    .testTarget(
      name: "CLITests",
      dependencies: ["CacheLabCLI", "Reports", "Traces", "Workloads", "cachelab", "TestSupport"]
    ),
  ]
)
