// swift-tools-version: 6.1
// CacheLab: a cache-policy simulator and benchmark suite.
//
// Module layering: a module imports only modules of lower layers, and only those it declares
// below (Tests/CacheCoreTests/LayeringTests.swift checks both against the sources).
//   layer 0: CPrefetch CGSL CZstd CLZMA CZlib CCrypto — C shims: prefetch hints, GSL, zstd, xz, zlib, MD5/HMAC
//   layer 1: CacheCore Stats TOML — vocabulary, policy protocol and registries, slot storage, I/O / GSL
//            statistics / a TOML 1.0 reader (study files)
//   layer 2: Policies Traces — eviction policies / trace readers and writers (compressed too)
//   layer 3: Engine Workloads Analysis — two-tier cache engine and presets / generators / trace characterisation
//   layer 4: Replay — one-pass multi-cache replayer, capacities, warm-up, sampling
//   layer 5: Reports — CSV, JSON, tables, statistics, comparisons
//   layer 6: Gate — the regression gate (replays baseline reports, judges values and speed)
//   layer 7: CacheLabCLI — the command line
//   layer 8: cachelab — the executable
// Nothing above layer 2 imports Policies: the engine, replayer, reports, gate and CLI reach
// policies through CacheCore's registries, which find `Policies.BuiltInPolicies` at run time in
// any program that links it (the executable, CacheLabKit, the tests). So Policies, the largest
// module, compiles beside Engine…CacheLabCLI instead of before them.
import PackageDescription

let package = Package(
  name: "CacheLab",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "cachelab", targets: ["cachelab"]),
    .library(
      name: "CacheLabKit", targets: ["CacheCore", "Policies", "Traces", "Engine", "Replay", "Stats", "Reports", "Gate"]
    ),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    // `swift package generate-documentation --target Replay` (and CacheCore, Engine): the DocC catalogs.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(name: "CPrefetch"),
    .target(name: "CacheCore", dependencies: ["CPrefetch"]),
    .target(name: "Policies", dependencies: ["CacheCore", "CPrefetch"]),
    .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .systemLibrary(name: "CLZMA", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),
    // MD5 file names in the file store and HMAC for anonymized traces (Apple platforms use
    // CommonCrypto instead).
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(
      name: "Traces",
      dependencies: [
        "CacheCore", "CZstd", "CLZMA", "CZlib", .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]),
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
    ),
    .target(name: "Stats", dependencies: ["CGSL"]),
    .target(name: "TOML"),
    .target(name: "Workloads", dependencies: ["CacheCore", "Traces", "Stats"]),
    .target(name: "Analysis", dependencies: ["CacheCore", "Traces", "Stats"]),
    .target(
      name: "Engine",
      dependencies: [
        "CacheCore", "CPrefetch", "CZlib",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]
    ),
    .target(name: "Replay", dependencies: ["CPrefetch", "CacheCore", "Traces", "Engine"]),
    .target(
      name: "Reports",
      dependencies: [
        "CacheCore", "Traces", "Engine", "Replay", "Stats", .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]),
    .target(name: "Gate", dependencies: ["CacheCore", "Traces", "Engine", "Replay", "Reports", "Stats"]),
    .target(
      name: "CacheLabCLI",
      dependencies: [
        "CacheCore", "Traces", "Stats", "Workloads", "Analysis", "Engine", "Replay", "Reports", "Gate", "TOML",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Policies: linked so that the registries find the built-in policies.
    .executableTarget(name: "cachelab", dependencies: ["CacheLabCLI", "Policies"]),
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
    .testTarget(name: "TOMLTests", dependencies: ["TOML", "TestSupport"]),
    .testTarget(name: "TracesTests", dependencies: ["CacheCore", "Traces", "TestSupport"], exclude: ["Fixtures"]),
    .testTarget(
      name: "StatsTests", dependencies: ["CacheCore", "Stats", "Workloads", "Analysis", "Traces", "TestSupport"]),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "CacheCore", "Policies", "Traces", "Engine", "Replay", "Reports", "Gate", "Stats", "Workloads", "TestSupport",
        "MallocCounter",
      ]
    ),
    .testTarget(name: "FoundationOracleTests", dependencies: ["CacheCore", "Policies", "Engine"]),
    .testTarget(
      name: "EngineTests", dependencies: ["CacheCore", "Engine", "Policies", "Traces", "TestSupport", "cachelab"]),
    .testTarget(name: "GateTests", dependencies: ["CacheCore", "Policies", "Reports", "Gate", "TestSupport"]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "CacheLabCLI", "Engine", "Policies", "Reports", "Gate", "Traces", "Workloads", "cachelab", "TestSupport",
      ]
    ),
  ]
)
