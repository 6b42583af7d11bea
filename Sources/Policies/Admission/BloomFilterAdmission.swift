import CacheCore

/// Admits an object from its second miss on: the first miss only records that it was seen.
///
/// libCacheSim's `bloomfilter.c`, which despite its name keeps an exact table of every key
/// it was asked about (never reset), so it is exact here too: no false positives.
/// Memory: one 8-byte key (plus hash-set overhead) per distinct missed object.
public final class BloomFilterAdmission: AdmissionPolicy {
  public static let descriptor = PolicyDescriptor(
    name: "bloom-filter", aliases: ["bloomfilter", "bloom"],
    summary: "admits an object on its second miss (an exact seen table, as libCacheSim's)",
    origin: "libCacheSim admission/bloomfilter.c",
    memoryPerObject: "~16 B per distinct missed key (hash set)",
    libCacheSim: .none(reason: "admission policy: Scripts/peer_diff.py compares it as create_bloomfilter_admissioner"))

  @usableFromInline var seen = Set<UInt64>()

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {}

  public func admits(_ request: Request) -> Bool {
    !seen.insert(request.key).inserted
  }

  /// The set's buckets at its current capacity (8-byte keys plus a bit each).
  public var storageBytes: Int { seen.capacity * 8 + seen.capacity / 8 }
}
