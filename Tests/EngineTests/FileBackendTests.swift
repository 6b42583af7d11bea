import CacheCore
import Engine
import Foundation
import Policies
import TestSupport
import Testing

/// The file backend: real files named by MD5, metadata that survives a restart, and no
/// partial object ever served after a crash.
@Suite(.serialized) struct FileBackendTests {
  static func configuration(_ directory: URL, namespaces: Bool = false) throws -> EngineConfiguration {
    EngineConfiguration(
      name: "file", memory: try TierConfiguration(parsing: "lru:1MiB", expiry: .http(heuristic: 0.1)),
      disk: try TierConfiguration(parsing: "lru:64MiB", expiry: .http(heuristic: 0.1)), namespacesByClass: namespaces,
      diskBackend: .file(directory: directory.path))
  }

  @Test func restartFindsEveryObjectWithItsMetadata() throws {
    let directory = Paths.temporaryDirectory("store")
    let first = try EngineDriver(Self.configuration(directory))
    for key: UInt64 in 1...40 {
      try first.get(
        key, at: Double(key), size: Int64(key) * 1000, cost: Int64(key), contentClass: key % 2 == 0 ? .image : .data,
        cacheControl: "max-age=\(key * 10), stale-if-error=5", version: Int64(key % 3), etag: "e\(key)",
        lastModified: 0.5, expires: 99, date: Double(key), status: 200)
    }
    #expect(first.stats.disk.writes == 40)
    #expect(first.stats.disk.fsyncs == 80, "each write syncs the file and its directory")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.count == 40)
    #expect(files.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "MD5 hex names")

    // A second process on the same directory finds every object as it was.
    let second = try EngineDriver(Self.configuration(directory))
    #expect(second.engine.diskObjects == 40)
    for key: UInt64 in 1...40 {
      let before = first.engine.diskMetadata(key)
      let after = second.engine.diskMetadata(key)
      #expect(before != nil && before == after, "metadata of \(key) changed across the restart")
    }
    let verified = try second.engine.verifyDisk()
    #expect(verified.objects == 40 && verified.unreadable == 0)
    #expect(try second.get(5, at: 50, size: 5000, cacheControl: "max-age=50", version: 2, etag: "e5") == .diskHit)
  }

  @Test func damagedFilesAreDiscardedNotServed() throws {
    let directory = Paths.temporaryDirectory("store")
    let cache = try EngineDriver(Self.configuration(directory))
    for key: UInt64 in 1...5 { try cache.get(key, at: Double(key), size: 50_000, cacheControl: "max-age=1000") }
    // Truncate one object and flip a byte in another, leave a stray temporary file.
    let victimA = directory.appendingPathComponent(Self.md5(2)).path
    let victimB = directory.appendingPathComponent(Self.md5(3)).path
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: victimA))
    try handle.truncate(atOffset: 20_000)
    try handle.close()
    var bytes = try Data(contentsOf: URL(fileURLWithPath: victimB))
    bytes[bytes.count - 10] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: victimB))
    #expect(
      FileManager.default.createFile(atPath: directory.appendingPathComponent(".tmp-x-1").path, contents: Data([1, 2])))
    let restarted = try EngineDriver(Self.configuration(directory))
    #expect(restarted.engine.diskObjects == 3)
    #expect(restarted.stats.disk.corruptDiscarded == 3)
    #expect(try restarted.get(2, at: 100, size: 50_000, cacheControl: "max-age=1000") == .fetched)
  }

  @Test func namespacesKeepOneFolderPerContentClass() throws {
    let directory = Paths.temporaryDirectory("zz")
    let configuration = EngineConfiguration(
      name: "zz", memory: nil, disk: try TierConfiguration(parsing: "fifo:unlimited"), namespacesByClass: true,
      diskBackend: .file(directory: directory.path))
    let cache = try EngineDriver(configuration)
    try cache.get(1, at: 0, contentClass: .image)
    try cache.get(2, at: 1, contentClass: .voice)
    try cache.get(3, at: 2, contentClass: .object)
    for (name, key) in [("image", 1), ("voice", 2), ("object", 3)] as [(String, UInt64)] {
      let folder = directory.appendingPathComponent(name).path
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [Self.md5(key)])
    }
  }

  /// A replay writing 4 MiB objects through the file backend is killed (SIGKILL) part-way,
  /// several times: each time once the store holds one more finished object than before (so
  /// the kill lands at a different point of a later write), waiting for that event rather than
  /// for a time. Each restart finds only complete objects, and every one reads back intact.
  @Test func aKilledWriterNeverLeavesAPartialObject() throws {
    let directory = Paths.temporaryDirectory("crash")
    var rows = "time,key,size\n"
    for key in 0..<400 { rows += "\(key),\(key),\(4 << 20)\n" }
    let trace = Paths.temporaryFile("crash.cachelab.csv", text: rows)
    var sawLeftover = false
    var recovered = 0
    /// The engine's store folder and its finished objects (files named by a 32-digit hash).
    func finishedObjects() -> (store: URL?, count: Int) {
      let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      guard let folder = folders.first(where: { $0.hasPrefix("engine-") }) else { return (nil, 0) }
      let store = directory.appendingPathComponent(folder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
      return (store, names.filter { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }.count)
    }
    for attempt in 0..<4 {
      let before = finishedObjects().count
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CLIBinary.path)
      process.arguments = [
        "run", "--trace", trace, "--format", "cachelab", "--memory", "fifo:1objects", "--disk", "fifo:unlimited",
        "--disk-backend", "file:\(directory.path)", "--quiet", "--serial",
      ]
      try process.run()
      // Kill once this run has finished `attempt + 1` more objects (or the run has ended).
      let wrote = Waiting.until { finishedObjects().count > before + attempt || !process.isRunning }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      try #require(wrote, "attempt \(attempt): no object was finished within two minutes")
      let store = try #require(finishedObjects().store, "attempt \(attempt): no store folder")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
      if names.contains(where: { $0.hasPrefix(".tmp-") }) { sawLeftover = true }
      let restarted = try EngineDriver(
        EngineConfiguration(
          name: "engine", memory: nil, disk: TierConfiguration(parsing: "fifo:unlimited"),
          diskBackend: .file(directory: store.path)))
      let verified = try restarted.engine.verifyDisk()
      #expect(verified.unreadable == 0, "attempt \(attempt): a partial object survived recovery")
      #expect(verified.objects > before, "attempt \(attempt): the objects finished before the kill are gone")
      recovered = verified.objects
      let left = try FileManager.default.contentsOfDirectory(atPath: store.path)
      #expect(!left.contains { $0.hasPrefix(".tmp-") }, "recovery removes unfinished writes")
    }
    #expect(recovered > 0)
    // With 4 MiB writes and fsyncs, a kill almost always lands mid-write; record it when it did.
    if !sawLeftover { print("note: no kill landed inside a write in this run") }
  }

  static func md5(_ key: UInt64) -> String { CacheEngine.diskFileName(for: key) }
}
