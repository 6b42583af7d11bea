import CacheCore
import Policies
import TestSupport
import Testing

/// Every registered policy that declares stable slots (`EvictionPolicy.slotsAreStable`, which
/// lets an engine tier keep its metadata by the policy's slot) keeps each cached object in one
/// slot until it leaves and reports that slot with the victim; every other policy answers -1.
/// Driven through the calls an engine tier makes: stores, hits, evictions and removals.
/// `holds(_:at:)`, which an engine's walk over its slots asks, agrees with `slot(of:)` for
/// cached objects and for objects that left.
@Suite struct SlotStabilityTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names)
  func slotsStayFixedWhileCached(name: String) throws {
    let requests = SyntheticTraces.requests(count: 2000, objects: 80, sizes: 1...400, seed: 21)
    let largest = requests.map(\.size).max() ?? 1
    for capacity in [largest, 4 * largest, 20 * largest] {
      let spec = try PolicySpec(parsing: name)
      let context = PolicyContext(seed: 5)
      let simulation = try spec.entry.makeSimulation(
        capacity: capacity, parameters: spec.parameters, context: context, admission: nil)
      var slots: [UInt64: Int32] = [:]
      /// Objects that left, with the slot they had.
      var departed: [UInt64: Int32] = [:]
      var victims: [Victim] = []
      var failure: String?

      func leave(_ left: [Victim], step: Int) {
        guard simulation.slotsAreStable else { return }
        for victim in left {
          guard let slot = slots.removeValue(forKey: victim.key) else { continue }
          departed[victim.key] = slot
          if victim.slot != slot, failure == nil {
            failure = "step \(step): \(victim.key) left slot \(slot) but its victim says \(victim.slot)"
          }
        }
      }

      for (step, request) in requests.enumerated() where failure == nil {
        switch step % 9 {
        case 0:
          leave(simulation.remove(request.key).map { [$0] } ?? [], step: step)
        case 1:
          if simulation.objectCount > 0 {
            simulation.evict(collecting: &victims)
            leave(victims, step: step)
          }
        default:
          if simulation.contains(request.key) {
            simulation.hit(request)
          } else {
            _ = simulation.store(request, collecting: &victims)
            leave(victims, step: step)
            if simulation.slotsAreStable, simulation.contains(request.key) {
              slots[request.key] = simulation.slot(of: request.key)
            }
          }
        }
        guard simulation.slotsAreStable else {
          if simulation.slot(of: request.key) != -1 { failure = "step \(step): a slot without stable slots" }
          continue
        }
        guard slots.count == simulation.objectCount else {
          failure = "step \(step): \(slots.count) objects tracked, the policy holds \(simulation.objectCount)"
          continue
        }
        for (key, slot) in slots where simulation.slot(of: key) != slot {
          failure = "step \(step): \(key) moved from slot \(slot) to \(simulation.slot(of: key))"
        }
        if Set(slots.values).count != slots.count { failure = "step \(step): two objects share a slot" }
        for (key, slot) in slots where !simulation.holds(key, at: slot) || simulation.holds(key, at: slot + 1) {
          failure = "step \(step): holds(\(key), at:) disagrees with its slot \(slot)"
        }
        for (key, slot) in departed where slots[key] == nil && simulation.holds(key, at: slot) {
          failure = "step \(step): \(key) left slot \(slot) but holds(_:at:) still says it is there"
        }
      }
      #expect(failure == nil, "\(name) capacity \(capacity): \(failure ?? "")")
    }
  }
}
