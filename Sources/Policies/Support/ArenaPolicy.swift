import CacheCore

/// A policy whose entries live in one ``SlotArena`` named `arena`: lookups forwarded to it.
/// A policy with ghost entries in the arena declares its own `contains`, which excludes them.
public protocol ArenaPolicy: EvictionPolicy, ~Copyable {
  associatedtype Extra
  /// The policy's entries, one arena node each.
  var arena: SlotArena<Extra> { get set }
}

extension ArenaPolicy where Self: ~Copyable {
  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }
}
