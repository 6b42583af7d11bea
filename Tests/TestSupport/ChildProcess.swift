import Foundation

/// Runs a program to its end and keeps what it printed: the tests' one way to start a child.
public enum ChildProcess {
  /// How a child ended and what it wrote.
  public struct Outcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// Runs `executable arguments` with `input` (text, or an open file) on standard input and
  /// `environment` added to this process's; waits for it to exit.
  public static func run(
    _ executable: String, _ arguments: [String], input: String? = nil, inputFile: FileHandle? = nil,
    environment: [String: String] = [:]
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    if let inputFile { process.standardInput = inputFile } else if input != nil { process.standardInput = stdin }
    try process.run()
    if let input, inputFile == nil {
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}
