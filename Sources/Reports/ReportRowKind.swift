import Replay

/// What a report row describes, as its `policy` cell says: a policy run (`lru`) or an engine,
/// a preset's (`preset:nuke:memory=64MiB`) or the custom one (`engine`).
public enum ReportRowKind: Sendable, Equatable {
  case policyRun(policy: String)
  case engine(EngineLabel)

  /// The kind of a row whose `policy` cell is `cell`.
  public init(policyCell cell: String) {
    self = EngineLabel(parsing: cell).map(Self.engine) ?? .policyRun(policy: cell)
  }

  public var isEngine: Bool {
    if case .engine = self { return true }
    return false
  }
}

extension ReportRow {
  /// What the row describes.
  public var kind: ReportRowKind { ReportRowKind(policyCell: policyName) }
}
