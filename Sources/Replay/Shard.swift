import CacheCore

/// One part of a run's grid of caches, for sweeps that run as array jobs: shard `index`
/// of `count` (0-based, `--shard 0/4` … `--shard 3/4`) takes the cells whose number modulo
/// `count` is `index`. Every shard reads the whole trace; `cachelab merge` joins their reports.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public let index: Int
  public let count: Int

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Parses `i/N` with 0 ≤ i < N.
  ///
  /// - Throws: ``ConfigurationError`` for anything else.
  public init(parsing text: String) throws(ConfigurationError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index >= 0,
      index < count
    else {
      throw ConfigurationError(
        .invalidValue, "shard '\(text)' must be i/N with 0 <= i < N (e.g. 0/4 for the first of four)")
    }
    self.init(index: index, count: count)
  }

  /// Whether grid cell `cell` belongs to this shard.
  public func contains(_ cell: Int) -> Bool { cell % count == index }

  public var description: String { "\(index)/\(count)" }
}
