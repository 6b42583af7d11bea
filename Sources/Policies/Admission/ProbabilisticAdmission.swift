import CacheCore

/// Admits each missed object with probability `p`, drawn from the run's seeded generator.
///
/// libCacheSim's `prob.c`: admitted when the next draw of libCacheSim's generator (lehmer64,
/// from state 0xdeadbeef + `--seed`) modulo 10⁷ is below ⌊p·10⁷⌋, so seed 0 draws exactly
/// as the libcachesim package does in a fresh thread.
/// Memory: none per object.
public final class ProbabilisticAdmission: AdmissionPolicy {
  public static let descriptor = PolicyDescriptor(
    name: "prob", aliases: ["probabilistic"],
    summary: "admits a missed object with probability p (seeded)",
    origin: "libCacheSim admission/prob.c",
    parameters: [
      ParameterSpec("p", default: "0.5", .real(0.0000001...1), help: "admission probability", aliases: ["prob"])
    ],
    memoryPerObject: "0 B", isRandomized: true,
    libCacheSim: .none(reason: "admission policy: Scripts/peer_diff.py compares it as create_prob_admissioner"))

  static let modulus: UInt64 = 10_000_000
  let threshold: UInt64
  var random: Lehmer64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    threshold = UInt64(parameters.real("p") * Double(Self.modulus))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
  }

  public func admits(_ request: Request) -> Bool { random.next() % Self.modulus < threshold }

  public var storageBytes: Int { 0 }
}
