import CacheCore
import Traces

/// A trace made on the fly instead of read from a file: `gen:zipf:objects=N,requests=M,
/// alpha=A[,rate=R][,sizes=KIND:k=v;k=v]`. Each run generates it with the run's seed, so
/// `--repeat` draws a fresh trace per repeat (inner commas of `sizes` are written `;`).
public struct SyntheticTraceSpec: Sendable {
  /// The generator with every parameter but the seed.
  public var workload: ZipfWorkload

  /// The prefix that marks a synthetic trace.
  public static let prefix = "gen:zipf:"

  /// Whether `text` names a synthetic trace.
  public static func matches(_ text: String) -> Bool { SyntheticTraceName.matches(text) }

  /// Parses the specification.
  ///
  /// - Throws: ``ConfigurationError`` for another generator, an unknown key or a bad value.
  public init(parsing text: String) throws(ConfigurationError) {
    guard text.lowercased().hasPrefix(Self.prefix) else {
      throw ConfigurationError(
        .invalidValue, "synthetic trace '\(text)': write gen:zipf:objects=N,requests=M,alpha=A (the only generator)")
    }
    var workload = ZipfWorkload(objects: 10_000, requests: 100_000, alpha: 1.0, seed: 0)
    for item in text.dropFirst(Self.prefix.count).split(separator: ",") {
      let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else {
        throw ConfigurationError(.invalidValue, "synthetic trace: '\(item)' is not key=value")
      }
      let (key, value) = (parts[0], parts[1])
      switch key {
      case "objects":
        guard let objects = Int(value), objects > 0, objects <= 1 << 28 else {
          throw ConfigurationError(.invalidValue, "synthetic trace: objects=\(value) must be in 1...2^28")
        }
        workload.objects = objects
      case "requests":
        guard let requests = Int64(value), requests > 0 else {
          throw ConfigurationError(.invalidValue, "synthetic trace: requests=\(value) must be positive")
        }
        workload.requests = requests
      case "alpha":
        guard let alpha = Double(value), alpha >= 0, alpha.isFinite else {
          throw ConfigurationError(.invalidValue, "synthetic trace: alpha=\(value) must be a non-negative number")
        }
        workload.alpha = alpha
      case "rate":
        guard let rate = Double(value), rate > 0, rate.isFinite else {
          throw ConfigurationError(.invalidValue, "synthetic trace: rate=\(value) must be positive")
        }
        workload.rate = rate
      case "sizes":
        workload.sizes = try SizeDistribution(parsing: value.split(separator: ";").joined(separator: ","))
      default:
        throw ConfigurationError(
          .invalidValue, "synthetic trace has no parameter '\(key)' (known: objects, requests, alpha, rate, sizes)")
      }
    }
    self.workload = workload
  }

  /// Writes the trace for `seed` to `path` (oracle-general with next-access times).
  public func generate(seed: UInt64, to path: String) throws(FileError) {
    var workload = self.workload
    workload.seed = seed
    let writer = try OracleGeneralWriter(path: path, computeNextAccess: true)
    try workload.generate(into: writer)
    try writer.commit()
  }
}
