import CacheCore
import Foundation
import TestSupport
import Testing

@testable import Traces

/// The read-ahead thread starts at the first read, so what a consumer sets up on the reader
/// after opening it (a convert's URL book) covers every record.
@Suite struct ReadAheadReaderTests {
  /// An inner reader that notes, at each read, whether the consumer's set-up was done.
  final class Probe: TraceReader, @unchecked Sendable {
    let path = "probe"
    let traits = TraceTraits(hasTime: false, hasSize: true, hasAttributes: false)
    let knownRequestCount: Int64? = nil
    var notes: String? { nil }
    var requestsRead: Int64 = 0
    var setUp = false
    var readsBeforeSetUp = 0
    var batches = 0

    func read(into batch: RequestBatch) throws(TraceError) -> Bool {
      batch.removeAll()
      if !setUp { readsBeforeSetUp += 1 }
      guard batches < 50 else { return false }
      batches += 1
      batch.refill { requests in
        for index in requests.indices { requests[index] = Request(key: UInt64(index), size: 1) }
        return requests.count
      }
      requestsRead += Int64(batch.count)
      return true
    }
  }

  @Test func nothingIsReadBeforeTheFirstRead() throws {
    let probe = Probe()
    let reader = ReadAheadReader(probe, chunks: 4, chunkSize: 64)
    probe.setUp = true  // what Convert does with the book, after opening
    let batch = RequestBatch(capacity: 100)
    var total = 0
    while try reader.read(into: batch) { total += batch.count }
    #expect(total == 50 * 64)
    #expect(probe.readsBeforeSetUp == 0)
  }

  @Test func aBookTurnedOnAfterOpeningRecordsEveryURL() throws {
    var text = "time,key,size\n"
    for index in 0..<20_000 { text += "\(index),https://h.example/p/\(index % 3_000).jpg,100\n" }
    let path = Paths.temporaryFile("urls.cachelab.csv", text: text)
    let reader = try TraceSpec(parsing: "cachelab").open(path)
    let book = try #require(reader.trafficBook)
    book.isRecordingURLs = true
    let batch = RequestBatch(capacity: 512)
    var missing = 0
    while try reader.read(into: batch) {
      for index in 0..<batch.count where book.text(of: batch[index].key) == nil { missing += 1 }
    }
    #expect(missing == 0)
  }
}
