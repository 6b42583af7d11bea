import CacheCore
import Policies
import TestSupport
import Testing

/// Every registered policy serves the calls an engine tier makes once it has looked a key up
/// (``CacheSimulation/hit(_:at:)`` on a hit with stable slots, ``CacheSimulation/insertMissing(_:collecting:)`` on
/// a miss) exactly as it serves the same requests through `serve`: the same outcomes, the
/// same victims in the same order, and the new object's slot as `slot(of:)` reports it.
@Suite struct TierCallTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names)
  func tierCallsMatchServe(name: String) throws {
    let requests = SyntheticTraces.requests(count: 3000, objects: 120, sizes: 1...400, seed: 33)
    let largest = requests.map(\.size).max() ?? 1
    for capacity in [largest, 5 * largest, 25 * largest] {
      let spec = try PolicySpec(parsing: name)
      func make() throws -> any CacheSimulation {
        try spec.entry.makeSimulation(
          capacity: capacity, parameters: spec.parameters, context: PolicyContext(seed: 9), admission: nil)
      }
      let reference = try make()
      let tier = try make()
      var expected: [Victim] = []
      var actual: [Victim] = []
      var failure: String?
      for (step, request) in requests.enumerated() where failure == nil {
        let outcome = reference.serve(request, collecting: &expected)
        let tierOutcome: Outcome
        if tier.contains(request.key) {
          // A tier serves a hit at the slot when slots are stable (such a hit evicts
          // nothing), else as a request (SLRU's promotion may evict).
          if tier.slotsAreStable {
            tier.hit(request, at: tier.slot(of: request.key))
            actual.removeAll()
            tierOutcome = .hit
          } else {
            tierOutcome = tier.serve(request, collecting: &actual)
          }
        } else {
          let (missOutcome, slot) = tier.insertMissing(request, collecting: &actual)
          tierOutcome = missOutcome
          let expectedSlot = tier.slotsAreStable && missOutcome == .inserted ? tier.slot(of: request.key) : -1
          if slot != expectedSlot {
            failure = "step \(step): insertMissing says slot \(slot), slot(of:) \(expectedSlot)"
          }
        }
        if outcome != tierOutcome {
          failure = "step \(step): serve says \(outcome), the tier calls \(tierOutcome)"
        } else if expected.map(\.key) != actual.map(\.key) {
          failure =
            "step \(step): victims \(expected.map(\.key)) through serve, \(actual.map(\.key)) through the tier calls"
        }
      }
      if failure == nil, reference.occupiedBytes != tier.occupiedBytes {
        failure = "occupancy \(reference.occupiedBytes) through serve, \(tier.occupiedBytes) through the tier calls"
      }
      #expect(failure == nil, "\(name) capacity \(capacity): \(failure ?? "")")
    }
  }
}
