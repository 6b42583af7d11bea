import CacheCore

/// The built-in eviction and admission policies: the registries in CacheCore find this type
/// at their first use (``BuiltInCatalog``). Adding a policy is its file plus one line here.
public enum BuiltInPolicies: BuiltInCatalog {
  /// Eviction policies in listing order (`cachelab policies`).
  public static let policies: [PolicyEntry] = [
    PolicyEntry(FIFO.self),
    PolicyEntry(LRU.self),
    PolicyEntry(Clock.self),
    PolicyEntry(Sieve.self),
    PolicyEntry(MRU.self),
    PolicyEntry(LFU.self),
    PolicyEntry(LFUDA.self),
    PolicyEntry(GDSF.self),
    PolicyEntry(SizeEviction.self),
    PolicyEntry(LRUK.self),
    PolicyEntry(MQ.self),
    PolicyEntry(Clock2QPlus.self),
    PolicyEntry(LRUProb.self),
    PolicyEntry(FIFOMerge.self),
    PolicyEntry(Belady.self),
    PolicyEntry(BeladySize.self),
    PolicyEntry(SLRU.self),
    PolicyEntry(SLRUv0.self),
    PolicyEntry(ARC.self),
    PolicyEntry(ARCv0.self),
    PolicyEntry(CAR.self),
    PolicyEntry(LIRS.self),
    PolicyEntry(ClockPro.self),
    PolicyEntry(TwoQ.self),
    PolicyEntry(WTinyLFU.self),
    PolicyEntry(WTinyLFULibCacheSim.self),
    PolicyEntry(LHD.self),
    PolicyEntry(LeCaR.self),
    PolicyEntry(Cacheus.self),
    PolicyEntry(Hyperbolic.self),
    PolicyEntry(S3FIFO.self),
    PolicyEntry(S3FIFO2024.self),
    PolicyEntry(S3FIFOd.self),
    PolicyEntry(QDLP.self),
    PolicyEntry(RandomEviction.self),
    PolicyEntry(RandomTwo.self),
    PolicyEntry(RandomLRU.self),
    PolicyEntry(FlashProb.self),
    PolicyEntry(CostLRU.self),
    PolicyEntry(AccessDatePurge.self),
    PolicyEntry(NSCacheOrder.self),
    PolicyEntry(URLCacheOrder.self),
  ]
  /// Admission policies in listing order (`cachelab admissions`).
  public static let admissions: [AdmissionEntry] = [
    AdmissionEntry(BloomFilterAdmission.self),
    AdmissionEntry(SizeAdmission.self),
    AdmissionEntry(ProbabilisticAdmission.self),
    AdmissionEntry(SizeProbabilisticAdmission.self),
    AdmissionEntry(AdaptSizeAdmission.self),
  ]
}
