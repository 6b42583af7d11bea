import CacheCore
import Traces

/// Next-access indices for a trace that does not carry them, computed in a pre-pass so
/// offline policies (Belady) can run on any format.
///
/// One forward pass records every key; one backward pass over that array replaces each key
/// with the 1-based index of the next request to the same object (``Request/never`` if
/// none). Memory: 8 bytes per request plus one hash entry per distinct object.
final class NextAccessIndex {
  private var values: [Int64]

  private init(values: [Int64]) {
    self.values = values
  }

  /// Reads `reader` to the end and computes the indices.
  static func build(_ reader: any TraceReader, batch: RequestBatch) throws(TraceError) -> NextAccessIndex {
    var values: [Int64] = []
    if let known = reader.knownRequestCount { values.reserveCapacity(Int(known)) }
    while try reader.read(into: batch) {
      batch.withRequests { requests in
        for request in requests { values.append(Int64(bitPattern: request.key)) }
      }
    }
    var lastSeen = SlotArena<Int64>(initialCapacity: 1 << 16)
    for index in stride(from: values.count - 1, through: 0, by: -1) {
      let key = UInt64(bitPattern: values[index])
      let slot = lastSeen.find(key)
      if slot >= 0 {
        values[index] = lastSeen[slot].extra
        lastSeen[slot].extra = Int64(index + 1)
      } else {
        values[index] = Request.never
        _ = lastSeen.insert(key: key, size: 0, extra: Int64(index + 1))
      }
    }
    return NextAccessIndex(values: values)
  }

  /// Number of requests indexed.
  var count: Int { values.count }

  /// Writes the indices of requests `offset ..< offset + batch.count` into the batch.
  func annotate(_ batch: RequestBatch, offset: Int64) {
    batch.annotateNextAccess { index in
      let global = Int(offset) + index
      return global < values.count ? values[global] : Request.unknown
    }
  }
}
