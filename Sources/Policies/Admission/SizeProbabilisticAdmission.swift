import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Admits a missed object of `size` bytes with probability e^(−exponent·size): small objects
/// almost always, large ones rarely.
///
/// libCacheSim's `sizeProbabilistic.c`: admitted when (the next draw of libCacheSim's
/// generator, lehmer64 from state 0xdeadbeef + `--seed`, modulo 10⁷) / 10⁷ is below that
/// probability (computed as (−exponent)·size). Memory: none per object.
public final class SizeProbabilisticAdmission: AdmissionPolicy {
  public static let descriptor = PolicyDescriptor(
    name: "size-prob", aliases: ["sizeprobabilistic", "size-probabilistic"],
    summary: "admits a missed object with probability e^(-exponent*size) (seeded)",
    origin: "libCacheSim admission/sizeProbabilistic.c",
    parameters: [
      ParameterSpec("exponent", default: "0.000001", .real(0.000000000001...1), help: "decay per byte")
    ],
    memoryPerObject: "0 B", isRandomized: true,
    libCacheSim: .none(
      reason: "admission policy: Scripts/peer_diff.py compares it as create_size_probabilistic_admissioner"))

  static let modulus: UInt64 = 10_000_000
  let exponent: Double
  var random: Lehmer64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    exponent = parameters.real("exponent")
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
  }

  public func admits(_ request: Request) -> Bool {
    let probability = exp((-exponent) * Double(request.size))
    return Double(random.next() % Self.modulus) / Double(Self.modulus) < probability
  }

  public var storageBytes: Int { 0 }
}
