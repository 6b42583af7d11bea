/// Trace paths of the form `gen:...` name a trace generated for each run from the run's seed
/// (equal seeds, equal traces) instead of a file.
public enum SyntheticTraceName {
  /// Whether `path` names a generated trace. O(1).
  public static func matches(_ path: String) -> Bool { path.lowercased().hasPrefix("gen:") }
}
