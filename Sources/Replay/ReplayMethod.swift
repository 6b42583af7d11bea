import CacheCore
import Traces

/// How a run computes its LRU curves (`--method`): every other policy is always simulated.
public enum ReplayMethod: String, Sendable, CaseIterable, CustomStringConvertible {
  /// One stack-distance pass for an LRU at 4 sizes or more (`StackPlan.automaticMinimumSizes`),
  /// at every size where it is exact; one simulation per size otherwise.
  case automatic
  /// One simulation per (policy, size).
  case simulate
  /// The stack pass at every LRU size where it is exact; refused when there is none.
  case stack

  public var description: String { rawValue }
}

/// Which policy runs one LRU stack pass serves (``StackCurveTarget``), and the header's note
/// on how each curve was made.
struct StackPlan {
  /// Fewer sizes than this are simulated under ``ReplayMethod/automatic``: one simulation per
  /// size on as many cores costs no more than the pass.
  static let automaticMinimumSizes = 4
  /// Bytes below which an LRU arena never grows when every object has a size: a zero-size
  /// object lets more objects than that be held, which the pass does not follow.
  static let arenaFloor: Int64 = 1 << 16

  /// Per pass: the indices of the cells (``ReplayCaches/cells``) it serves.
  var passes: [[Int]] = []
  /// `method: ...`, or nil when no LRU runs at enough sizes for the method to matter.
  var note: String?
}

extension Replayer {
  /// Whether the run may use the stack pass, so that the pre-pass checking the trace is worth
  /// reading (it is made anyway for fractional sizes).
  var wantsStackPass: Bool {
    let config = configuration
    guard config.method != .simulate, config.timeToLive == nil else { return false }
    let sizes = config.capacities.count
    let minimum = config.method == .stack ? 1 : StackPlan.automaticMinimumSizes
    return config.policies.enumerated().contains { offset, policy in
      Self.stackable(policy) && (0..<sizes).filter { config.runs(cell: offset * sizes + $0) }.count >= minimum
    }
  }

  /// Whether `policy` is LRU exactly, with nothing in front of it.
  static func stackable(_ policy: PolicySpec) -> Bool {
    policy.entry.descriptor.lruStack != nil && policy.admission == nil
  }

  /// Decides which cells the stack pass serves: those of an LRU without admission, at the
  /// run's own sampling rate, at sizes where the pre-pass showed the pass exact (no puts or
  /// deletes; in byte mode, object sizes that never change, and no object larger than the
  /// size, nor of size 0 below ``StackPlan/arenaFloor``).
  func planStack(_ cells: [ReplayCaches.Cell], summary: TraceSummary?) throws(ReplayError) -> StackPlan {
    let config = configuration
    var plan = StackPlan()
    guard config.method != .simulate else {
      plan.note = "every cache simulated per size (--method simulate)"
      return plan
    }
    let minimum = config.method == .stack ? 1 : StackPlan.automaticMinimumSizes
    var groups: [String: [Int]] = [:]
    var order: [String] = []
    for (index, cell) in cells.enumerated() where Self.stackable(cell.policy) {
      let key = cell.policy.label
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(index)
    }
    let candidates = order.filter { (groups[$0]?.count ?? 0) >= minimum }
    guard !candidates.isEmpty else {
      if config.method == .stack {
        throw refusal("no policy is an LRU without admission, so there is no LRU curve to make in one pass")
      }
      return plan
    }
    if let reason = wholeRunReason(summary) {
      if config.method == .stack { throw refusal(reason) }
      plan.note = candidates.map { "\($0) simulated per size: \(reason)" }.joined(separator: "; ")
      return plan
    }
    var parts: [String] = []
    for label in candidates {
      var exact: [Int] = []
      var excluded: [String: Int] = [:]
      for index in groups[label] ?? [] {
        if let reason = cellReason(cells[index], summary) {
          excluded[reason, default: 0] += 1
        } else {
          exact.append(index)
        }
      }
      if exact.count >= minimum {
        plan.passes.append(exact)
        parts.append("\(label) at \(exact.count) \(exact.count == 1 ? "size" : "sizes") by one stack-distance pass")
      } else if !exact.isEmpty {
        excluded["too few sizes where the pass is exact", default: 0] += exact.count
      }
      for (reason, count) in excluded.sorted(by: { $0.key < $1.key }) {
        parts.append("\(label) at \(count) \(count == 1 ? "size" : "sizes") simulated: \(reason)")
      }
    }
    if config.method == .stack, plan.passes.isEmpty {
      throw refusal(parts.joined(separator: "; "))
    }
    if cells.contains(where: { !Self.stackable($0.policy) }) || !config.engines.isEmpty {
      parts.append("other caches simulated")
    }
    plan.note = parts.joined(separator: "; ")
    return plan
  }

  /// Why no size of this run may use the pass, or nil.
  private func wholeRunReason(_ summary: TraceSummary?) -> String? {
    if configuration.timeToLive != nil {
      return "--ttl expires each object by its own insertion time, which one pass does not follow"
    }
    guard let summary else {
      return "standard input is read once, and the pass needs a pre-pass that checks the trace"
    }
    if summary.putsAndDeletes > 0 {
      return "the trace has \(summary.putsAndDeletes) put and delete rows"
    }
    if !configuration.ignoreSize, summary.getSizesChange {
      return "objects change size between requests"
    }
    return nil
  }

  /// Why `cell` may not use the pass, or nil.
  private func cellReason(_ cell: ReplayCaches.Cell, _ summary: TraceSummary?) -> String? {
    guard let summary else { return "no pre-pass" }
    if cell.rate != configuration.slice.sampleRate {
      return "the sample floor raised their sampling rate"
    }
    guard !configuration.ignoreSize else { return nil }
    if cell.capacity < summary.largestGet {
      return "smaller than the largest object (\(ByteCount.format(summary.largestGet)))"
    }
    if summary.hasZeroSizeGet, cell.capacity < StackPlan.arenaFloor {
      return "below \(ByteCount.format(StackPlan.arenaFloor)) with objects of size 0"
    }
    return nil
  }

  private func refusal(_ reason: String) -> ReplayError {
    .configuration(ConfigurationError(.invalidValue, "--method stack: \(reason)"))
  }
}
