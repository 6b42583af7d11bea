import CacheCore
import Foundation
import TestSupport
import Testing

@Suite struct AtomicFileWriterTests {
  @Test func commitReplacesTheTargetAtOnce() throws {
    let directory = Paths.temporaryDirectory()
    let path = directory.appendingPathComponent("report.csv").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    let writer = try AtomicFileWriter(path: path)
    try writer.write("new,")
    try writer.writeDecimal(Int64(-42))
    try writer.writeByte(0x0A)
    try writer.flush()
    // Before commit the target still holds the old content.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    try writer.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new,-42\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.csv"])
  }

  @Test func abandonLeavesTheTargetAndNoTemporaryFile() throws {
    let directory = Paths.temporaryDirectory()
    let path = directory.appendingPathComponent("report.csv").path
    try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
    do {
      let writer = try AtomicFileWriter(path: path)
      try writer.write(String(repeating: "x", count: 3_000_000))
      // dropped without commit
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.csv"])
  }

  @Test func aFolderThatCannotBeCreatedIsAClearError() throws {
    // A regular file where a parent folder should be: not creatable, even by root.
    let blocker = Paths.temporaryFile("blocker", text: "")
    #expect {
      _ = try AtomicFileWriter(path: blocker + "/sub/report.csv")
    } throws: { error in
      (error as? FileError)?.description.contains("cannot create the output folder") ?? false
    }
  }

  @Test func missingParentFoldersAreCreated() throws {
    let folder = Paths.temporaryDirectory("parents").appendingPathComponent("a/b").path
    let writer = try AtomicFileWriter(path: folder + "/report.csv")
    try writer.write("x")
    try writer.commit()
    #expect(FileManager.default.fileExists(atPath: folder + "/report.csv"))
  }
}
