/// Where a replay stops fitting in one core's private cache: past ``objects`` cached objects
/// (some 64 bytes each of buckets, entries and list links, 2 MiB in all) each request waits on
/// memory, so the replay loop prefetches in stages and a binary trace is decoded on another
/// thread. Below it both cost more than they hide (the regression gate's caches of 90 and 900
/// objects replayed markedly slower with them).
public enum PrivateCacheFit {
  /// Cached objects past which a replay is bound by memory rather than by its instructions.
  public static let objects = 1 << 15
}
