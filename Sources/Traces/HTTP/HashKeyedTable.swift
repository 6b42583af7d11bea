/// A map from 64-bit hash keys (already well mixed, as ``KeyHash`` makes them) to values:
/// open addressing over dense arrays, with no rehashing of the key and no removal. A look-up
/// costs one multiply and a short probe; memory is the values, 8 bytes of key per entry and
/// 4 bytes per slot (two to four slots per entry).
struct HashKeyedTable<Value> {
  /// Entry number per slot, -1 when empty.
  private var slots = [Int32](repeating: -1, count: 64)
  /// 64 minus log2 of the slot count: a slot is the top bits of the key's product.
  private var shift: UInt64 = 58
  private var keys: [UInt64] = []
  private var values: [Value] = []

  var count: Int { values.count }

  /// The entry of `key`, added with `make()` when it is not there yet.
  @inline(__always)
  mutating func entry(_ key: UInt64, orAdd make: () -> Value) -> Int {
    var slot = slot(of: key)
    while slots[slot] >= 0 {
      let entry = Int(slots[slot])
      if keys[entry] == key { return entry }
      slot = (slot + 1) & (slots.count - 1)
    }
    let entry = values.count
    keys.append(key)
    values.append(make())
    slots[slot] = Int32(entry)
    if 2 * values.count > slots.count { grow() }
    return entry
  }

  subscript(entry: Int) -> Value {
    get { values[entry] }
    set { values[entry] = newValue }
  }

  @inline(__always)
  private func slot(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// Doubles the slots and places every entry again.
  private mutating func grow() {
    slots = [Int32](repeating: -1, count: 2 * slots.count)
    shift -= 1
    for (entry, key) in keys.enumerated() {
      var slot = slot(of: key)
      while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = Int32(entry)
    }
  }
}
