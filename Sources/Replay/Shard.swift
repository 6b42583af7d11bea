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
  /// - Throws: `ConfigurationError` for anything else.
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

  /// The shard a cluster scheduler assigned to this process (`--shard auto`): a Slurm job
  /// array (`SLURM_ARRAY_TASK_ID`, with `SLURM_ARRAY_TASK_COUNT`, else `MAX − MIN + 1`;
  /// the index counts from `SLURM_ARRAY_TASK_MIN`) or a Kubernetes Indexed Job
  /// (`JOB_COMPLETION_INDEX`, whose count the scheduler does not export: `count` gives it).
  ///
  /// - Throws: `ConfigurationError` when neither scheduler's variables are set, or they
  ///   disagree with `count`.
  public static func assigned(by environment: [String: String], count given: Int?) throws(ConfigurationError)
    -> Shard
  {
    func number(_ name: String) throws(ConfigurationError) -> Int? {
      guard let text = environment[name] else { return nil }
      guard let value = Int(text), value >= 0 else {
        throw ConfigurationError(.invalidValue, "\(name)='\(text)' is not a non-negative integer")
      }
      return value
    }
    let index: Int
    let count: Int
    if let task = try number("SLURM_ARRAY_TASK_ID") {
      let low = try number("SLURM_ARRAY_TASK_MIN") ?? 0
      let high = try number("SLURM_ARRAY_TASK_MAX")
      guard let total = try number("SLURM_ARRAY_TASK_COUNT") ?? high.map({ $0 - low + 1 }) ?? given else {
        throw ConfigurationError(
          .invalidValue,
          "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT or _MAX; add --shards N")
      }
      index = task - low
      count = total
    } else if let completion = try number("JOB_COMPLETION_INDEX") {
      guard let given else {
        throw ConfigurationError(
          .invalidValue, "--shard auto in a Kubernetes Indexed Job needs --shards N (the Job's completions)")
      }
      index = completion
      count = given
    } else {
      throw ConfigurationError(
        .invalidValue,
        "--shard auto needs a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)")
    }
    if let given, given != count {
      throw ConfigurationError(.invalidValue, "--shards \(given) disagrees with the scheduler's \(count) tasks")
    }
    guard count >= 1, index >= 0, index < count else {
      throw ConfigurationError(.invalidValue, "--shard auto: task \(index) is outside 0..<\(count)")
    }
    return Shard(index: index, count: count)
  }

  /// Whether grid cell `cell` belongs to this shard.
  public func contains(_ cell: Int) -> Bool { cell % count == index }

  public var description: String { "\(index)/\(count)" }
}
