import CacheCore
import Foundation
import TestSupport
import Testing

@testable import Traces

/// The replay's batch feed: fixed-size records decoded ahead on another thread (from the batch
/// the caller asks on) arrive whole, in order, a malformed file's error reaches the consumer,
/// and a consumer that stops early does not wait for the rest of the file.
@Suite struct BatchFeedTests {
  static func trace(_ count: Int, name: String) -> (path: String, requests: [Request]) {
    let requests = (0..<count).map { Request(key: UInt64($0 % 977) &* 0x9E37, size: Int64(1 + $0 % 5000)) }
    return (Paths.temporaryFile(name, bytes: SyntheticTraces.oracleGeneral(requests)), requests)
  }

  static func drain(_ feed: BatchFeed) throws(TraceError) -> [Request] {
    var seen: [Request] = []
    while let batch = try feed.next() { batch.withRequests { seen.append(contentsOf: $0) } }
    return seen
  }

  @Test func fixedSizeRecordsAreReadAheadInOrder() throws {
    // More than a few read-ahead batches, ending inside one.
    let (path, requests) = Self.trace(5 * BatchFeed.aheadBatchCapacity + 123, name: "feed.oracleGeneral.bin")
    let reader = try TraceSpec(parsing: "oracle-general").open(path)
    let feed = BatchFeed(reader, batch: RequestBatch(capacity: 1 << 16))
    // The first batch on this thread, the rest ahead on another.
    #expect(!feed.readsAhead)
    var seen: [Request] = []
    try #require(try feed.next()).withRequests { seen.append(contentsOf: $0) }
    feed.readAhead()
    #expect(feed.readsAhead)
    seen += try Self.drain(feed)
    feed.stop()
    #expect(seen.map(\.key) == requests.map(\.key))
    #expect(seen.map(\.size) == requests.map(\.size))
    #expect(reader.requestsRead == Int64(requests.count))
    #expect(try feed.next() == nil)
  }

  @Test func otherReadersAreReadOnTheCallersThread() throws {
    let path = Paths.temporaryFile("feed.cachelab.csv", text: "time,key,size\n1,a,10\n2,b,20\n3,a,10\n")
    let reader = try TraceSpec(parsing: "cachelab").open(path)
    let feed = BatchFeed(reader, batch: RequestBatch(capacity: 2))
    feed.readAhead()
    #expect(!feed.readsAhead)
    #expect(try Self.drain(feed).map(\.size) == [10, 20, 10])
  }

  @Test func aTruncatedRecordReachesTheConsumer() throws {
    let (path, requests) = Self.trace(3 * BatchFeed.aheadBatchCapacity, name: "feed-cut.oracleGeneral.bin")
    let reader = try TraceSpec(parsing: "oracle-general").open(path)
    // Cut the file after it was opened (the open checks its length): the reader meets the end
    // inside a record.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(24 * (requests.count - 7) + 10))
    try handle.close()
    let feed = BatchFeed(reader, batch: RequestBatch(capacity: 1 << 16))
    feed.readAhead()
    var seen = 0
    let error = #expect(throws: TraceError.self) {
      while let batch = try feed.next() { seen += batch.count }
    }
    // What came before is delivered whole or not at all (the reader throws from inside the
    // batch that holds the cut); the run then fails rather than ending short.
    #expect(seen % BatchFeed.aheadBatchCapacity == 0 && seen <= requests.count - 7)
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("truncated record") == true)
  }

  @Test func stoppingEarlyEndsTheBackgroundReader() throws {
    let (path, _) = Self.trace(20 * BatchFeed.aheadBatchCapacity, name: "feed-early.oracleGeneral.bin")
    let reader = try TraceSpec(parsing: "oracle-general").open(path)
    let feed = BatchFeed(reader, batch: RequestBatch(capacity: 1 << 16))
    feed.readAhead()
    #expect(try feed.next()?.count == BatchFeed.aheadBatchCapacity)
    feed.stop()  // returns once the reader thread has stopped, long before the file's end
    #expect(reader.requestsRead < Int64(10 * BatchFeed.aheadBatchCapacity))
    feed.stop()  // idempotent
    feed.readAhead()  // not once stopped
    #expect(!feed.readsAhead)
  }
}
