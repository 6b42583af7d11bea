/// A table of every key the library has looked up, stored or not (nginx's keys zone): it
/// counts lookups per key, holds at most `capacity` keys, and is what a manager pass trims.
public struct KeyTableRule: Sendable, Equatable {
  /// Keys held; a lookup of a new key beyond it first forces out the least recently looked-up
  /// key and its stored object.
  public var capacity: Int
  /// Lookups of a key (this one included) before its response is stored.
  public var minimumUses: Int
  /// The use counter wraps to 0 here (nginx keeps it in 10 bits).
  public var usesModulo: Int
  /// A key not looked up for this long (µs) is gone, with its stored object.
  public var inactive: Int64
  /// After a forced expiry, manager passes trim the key count below `count - count / watermarkDivisor`.
  public var watermarkDivisor: Int

  public init(capacity: Int, minimumUses: Int, usesModulo: Int, inactive: Int64, watermarkDivisor: Int) {
    self.capacity = capacity
    self.minimumUses = minimumUses
    self.usesModulo = usesModulo
    self.inactive = inactive
    self.watermarkDivisor = watermarkDivisor
  }
}
