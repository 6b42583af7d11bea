// swift-tools-version: 6.1
// A program that uses CacheLab as a library: it defines its own eviction policy and preset,
// registers them, and runs them through CacheLab's replayer and reports. Run it with
// `swift run --package-path Examples/CustomPolicy CustomPolicyDemo` from the repository root.
import PackageDescription

let package = Package(
  name: "CustomPolicy",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "CacheLab", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "CustomPolicyDemo",
      dependencies: [.product(name: "CacheLabKit", package: "CacheLab")]
    )
  ]
)
