import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs another program to completion (`posix_spawn`, then `waitpid`): standard input from
/// `/dev/null`, standard output and error into files, the environment and working directory
/// inherited. A child still running after the time limit is killed. One process at a time;
/// costs the program's own run plus about a millisecond.
public enum ChildProcess {
  /// How a child ended.
  public enum Ending: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    case timedOut(seconds: Double)

    public var description: String {
      switch self {
      case .exited(let status): return "exit status \(status)"
      case .signalled(let signal): return "killed by signal \(signal)"
      case .timedOut(let seconds): return "still running after \(Int(seconds)) s, killed"
      }
    }
  }

  /// Runs `executable` with `arguments`, writing its standard output to `output` and its
  /// standard error to `errors` (both created or truncated).
  ///
  /// - Throws: ``FileError`` naming the executable when it cannot be started.
  public static func run(
    _ executable: String, _ arguments: [String], output: String, errors: String, timeLimit: Double = 600
  ) throws(FileError) -> Ending {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    // A bare name is looked up on PATH (posix_spawnp), a path is used as given.
    let started =
      executable.contains("/")
      ? posix_spawn(&pid, executable, &actions, nil, argv, environ)
      : posix_spawnp(&pid, executable, &actions, nil, argv, environ)
    guard started == 0 else {
      throw FileError(path: executable, "cannot run: \(systemErrorMessage(started))")
    }
    return wait(for: pid, timeLimit: timeLimit)
  }

  /// Waits for `pid`, polling every millisecond at first and every 20 ms later, and kills it
  /// once `timeLimit` seconds have passed.
  static func wait(for pid: pid_t, timeLimit: Double) -> Ending {
    let started = POSIXIO.monotonicNanoseconds()
    var pause: Int = 1_000_000
    while true {
      var status: Int32 = 0
      let done = waitpid(pid, &status, WNOHANG)
      if done == pid {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
      }
      if done < 0 && errno != EINTR { return .exited(-1) }
      let elapsed = Double(POSIXIO.monotonicNanoseconds() - started) / 1e9
      if elapsed > timeLimit {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return .timedOut(seconds: timeLimit)
      }
      var request = timespec(tv_sec: 0, tv_nsec: pause)
      nanosleep(&request, nil)
      pause = min(pause * 2, 20_000_000)
    }
  }

  /// The path of the running executable (`/proc/self/exe` on Linux), or nil if unknown.
  public static var currentExecutable: String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      var size: UInt32 = 4096
      var buffer = [CChar](repeating: 0, count: Int(size))
      guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
      return String(cString: buffer)
    #endif
  }

  /// Runs `executable arguments` and returns its standard output when it exits 0 (nil
  /// otherwise, or when it cannot be started); its output goes through files in `scratch`.
  public static func output(of executable: String, _ arguments: [String], scratch: String) -> String? {
    let out = scratch + "/child.out"
    let err = scratch + "/child.err"
    defer {
      unlink(out)
      unlink(err)
    }
    guard (try? run(executable, arguments, output: out, errors: err, timeLimit: 30)) == .exited(0) else { return nil }
    return try? readText(out)
  }

  /// The whole text of the file at `path`.
  public static func readText(_ path: String) throws(FileError) -> String {
    String(decoding: try readWholeFile(path), as: UTF8.self)
  }
}
