extension UnsafeMutablePointer {
  /// Moves the first `count` elements of `buffer` into a new allocation of `capacity`
  /// elements and frees `buffer`: the growth step of CacheCore's hand-managed buffers.
  /// O(count); elements past `count` are uninitialised.
  @inlinable
  public static func regrow(_ buffer: UnsafeMutablePointer, moving count: Int, to capacity: Int)
    -> UnsafeMutablePointer
  {
    let bigger = UnsafeMutablePointer.allocate(capacity: capacity)
    bigger.moveInitialize(from: buffer, count: count)
    buffer.deallocate()
    return bigger
  }
}
