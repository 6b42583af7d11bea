import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// The cachelab reader remembers parsed header values and key texts; every row must still get
/// exactly what parsing its own text gives, however the values repeat and collide in the memo.
@Suite struct HeaderMemoTests {
  @Test func repeatedAndCollidingHeaderValuesParseAsTheirOwnText() throws {
    // 600 distinct Cache-Control values (more than the memo's slots), revisited in a
    // scrambled order, with weak, strong and non-ASCII ETags and varied classes and ops.
    var texts: [String] = []
    for index in 0..<600 {
      texts.append(index % 7 == 0 ? "no-store" : "public, max-age=\(index)\(index % 5 == 0 ? ", immutable" : "")")
    }
    let etags = ["\"v1\"", "W/\"v1\"", "\"é-v2\"", "W/\"ü\"", "plain"]
    let classes = ["image", "data", "image/png", "audio/mpeg", "voice"]
    let ops = ["get", "GET", "put", "read"]
    // 1,500 URL keys (more than the key memo's slots) of one length whose first and last eight
    // bytes are shared in pairs, and decimal keys.
    var keys: [String] = []
    for index in 0..<750 {
      let number = String(index + 1000)
      keys.append("https://h.example/a/\(number)/x.jpg")
      keys.append("https://h.example/b/\(number)/x.jpg")
      keys.append(number)
    }
    var csv = "time,key,size,op,class,cache_control,etag\n"
    var expected: [(CacheControl, String, ContentClass, Request.Operation)] = []
    var expectedKeys: [(UInt64, URLKey)] = []
    var state: UInt64 = 7
    for row in 0..<3000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let text = texts[Int(state >> 33) % texts.count]
      let etag = etags[row % etags.count]
      let contentClass = classes[(row / 3) % classes.count]
      let op = ops[(row / 7) % ops.count]
      let quotedETag = etag.replacingOccurrences(of: "\"", with: "\"\"")
      let key = keys[Int(state >> 20) % keys.count]
      expectedKeys.append((UInt64(key) ?? KeyHash.hash(key), URLKey(parsing: key)))
      csv += "\(row),\(key),100,\(op),\(contentClass),\"\(text)\",\"\(quotedETag)\"\n"
      let operation: Request.Operation = op.lowercased() == "put" ? .put : .get
      expected.append((CacheControl(parsing: text), etag, ContentClass(name: contentClass)!, operation))
    }
    let path = Paths.temporaryFile("memo.cachelab.csv", bytes: Array(csv.utf8))
    let reader = try TraceSpec(parsing: "cachelab").open(path)
    let batch = RequestBatch(capacity: 256)
    var row = 0
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        let attributes = batch.attributes(index)
        let (cacheControl, etag, contentClass, operation) = expected[row]
        #expect(attributes.cacheControl == cacheControl, "row \(row)")
        let weak = etag.hasPrefix("W/")
        #expect(attributes.etagIsWeak == weak, "row \(row)")
        let hash = KeyHash.hash(weak ? String(etag.dropFirst(2)) : etag)
        #expect(attributes.etag == (hash == 0 ? 1 : hash), "row \(row)")
        #expect(attributes.contentClass == contentClass, "row \(row)")
        #expect(batch[index].operation == operation, "row \(row)")
        #expect(batch[index].key == expectedKeys[row].0, "row \(row)")
        #expect(attributes.url == expectedKeys[row].1, "row \(row)")
        row += 1
      }
    }
    #expect(row == expected.count)
  }
}
