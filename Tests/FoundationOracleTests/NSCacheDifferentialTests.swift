import CacheCore
import Engine
import Foundation
import Policies
import Testing

/// Replays seeded workloads through the real swift-corelibs-foundation `NSCache`, the
/// `nscache-linux` preset and the `nscache` policy, and checks every request: hit or miss,
/// and which keys are resident afterwards.
@Suite(.enabled(if: foundationIsOpenSource, Comment(rawValue: oracleSkipMessage)))
struct NSCacheDifferentialTests {
  /// One seeded workload: limits, keys with costs, and a list of gets and re-puts.
  struct Workload: CustomStringConvertible {
    enum Step {
      /// Look up; on a miss, store with the key's cost (cache-aside).
      case get(Int)
      /// Store again with this cost (the key's cost from now on).
      case put(Int, cost: Int)
    }

    var costLimit: Int
    var countLimit: Int
    var costs: [Int]
    var steps: [Step]
    let seed: UInt64

    init(seed: UInt64) {
      self.seed = seed
      var random = WorkloadRandom(seed: seed)
      costLimit = random.chance(0.25) ? 0 : random.int(5...60)
      countLimit = random.chance(0.5) ? 0 : random.int(1...8)
      if costLimit == 0 && countLimit == 0 { countLimit = random.int(1...6) }
      let keys = random.int(3...20)
      let tieHeavy = random.chance(0.5)
      let top = max(costLimit, 20) * 3 / 2
      func drawCost(_ random: inout WorkloadRandom) -> Int {
        tieHeavy ? [0, 1, 2, 2, 3, 5, 5][random.int(0...6)] : random.int(0...top)
      }
      costs = (0..<keys).map { _ in drawCost(&random) }
      var current = costs
      steps = []
      for _ in 0..<random.int(20...120) {
        let key = random.skewed(keys)
        let roll = random.generator.nextUnit()
        if roll < 0.7 {
          steps.append(.get(key))
        } else if roll < 0.85 {
          steps.append(.put(key, cost: current[key]))
        } else {
          current[key] = drawCost(&random)
          steps.append(.put(key, cost: current[key]))
        }
      }
    }

    var description: String { "workload \(seed) (cost limit \(costLimit), count limit \(countLimit))" }
  }

  static let workloads = 400

  @Test func presetAndPolicyAgreeWithFoundationRequestByRequest() throws {
    var requests = 0
    for seed in 1...UInt64(Self.workloads) {
      requests += try compare(Workload(seed: seed))
    }
    print("NSCache: \(Self.workloads) workloads, \(requests) steps compared")
    #expect(requests > Self.workloads * 40)
  }

  /// Replays `workload` through all three; returns the number of steps compared.
  func compare(_ workload: Workload) throws -> Int {
    let real = NSCache<NSNumber, NSString>()
    real.totalCostLimit = workload.costLimit
    real.countLimit = workload.countLimit
    let engine = try CacheEngine(
      try PresetSpec(parsing: "nscache-linux:cost-limit=\(workload.costLimit),count-limit=\(workload.countLimit)")
        .configuration)
    let policy = try PolicySpec(parsing: "nscache:count-limit=\(workload.countLimit)").entry.makeSimulation(
      capacity: workload.costLimit > 0 ? Int64(workload.costLimit) : .max,
      parameters: try PolicySpec(parsing: "nscache:count-limit=\(workload.countLimit)").parameters,
      context: PolicyContext())
    var victims: [Victim] = []
    var cost = workload.costs
    for (index, step) in workload.steps.enumerated() {
      let time = Int64(index + 1) * 1000
      switch step {
      case .get(let key):
        let realHit = real.object(forKey: NSNumber(value: key)) != nil
        if !realHit { real.setObject("v", forKey: NSNumber(value: key), cost: cost[key]) }
        let presetHit = try engineRow(
          engine, key: UInt64(key), size: Int64(cost[key]), cost: Int64(cost[key]), operation: .get, time: time)
        let policyHit =
          policy.serve(Request(key: UInt64(key), size: Int64(cost[key])), collecting: &victims) == .hit
        try #require(
          presetHit == realHit && policyHit == realHit,
          "\(workload) step \(index) get \(key): Foundation \(realHit), preset \(presetHit), policy \(policyHit)")
      case .put(let key, let newCost):
        cost[key] = newCost
        real.setObject("v", forKey: NSNumber(value: key), cost: newCost)
        _ = try engineRow(
          engine, key: UInt64(key), size: Int64(newCost), cost: Int64(newCost), operation: .put, time: time)
        _ = policy.store(Request(key: UInt64(key), size: Int64(newCost)), collecting: &victims)
      }
      for key in 0..<workload.costs.count {
        let resident = real.object(forKey: NSNumber(value: key)) != nil
        let inPreset = engine.memoryMetadata(UInt64(key)) != nil
        let inPolicy = policy.contains(UInt64(key))
        try #require(
          inPreset == resident && inPolicy == resident,
          "\(workload) after step \(index): key \(key) resident in Foundation \(resident), preset \(inPreset), policy \(inPolicy)"
        )
      }
      try engine.checkInvariants()
    }
    return workload.steps.count
  }
}
