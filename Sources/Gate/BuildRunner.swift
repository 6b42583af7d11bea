import CacheCore
import Reports
import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `cachelab` executable measuring speed units in fresh processes: it runs
/// `EXE regress --baseline FOLDER --update` on a folder that holds only the unit's report (an
/// interface every cachelab with a regression gate has) and reads `requests_per_second` back
/// from the rewritten report. Each call costs one process: the unit's replay plus start-up.
public struct BuildRunner: Sendable {
  /// Why a unit could not be measured.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var executable: String
    public var unit: String
    public var message: String
    public var description: String { "\(executable) could not replay \(unit): \(message)" }

    public init(executable: String, unit: String, message: String) {
      self.executable = executable
      self.unit = unit
      self.message = message
    }
  }

  public let executable: String
  /// This build's own scratch folder (the unit's report and the process's output go there).
  public let folder: String

  public init(executable: String, folder: String) {
    self.executable = executable
    self.folder = folder
  }

  /// Each configuration's requests per second in one fresh replay of `unit`.
  public func measure(_ unit: SpeedPlan.Unit) -> Result<[Int: Double], Failure> {
    let report = folder + "/" + unit.fileName
    let name = "\(unit.group) (\(unit.fileName), run \(unit.run + 1))"
    func failure(_ message: String) -> Result<[Int: Double], Failure> {
      .failure(Failure(executable: executable, unit: name, message: message))
    }
    do throws(FileError) {
      let writer = try AtomicFileWriter(path: report)
      try writer.write(unit.text)
      try writer.commit()
      let ending = try ChildProcess.run(
        executable, ["regress", "--baseline", folder, "--update"], output: folder + "/process.out",
        errors: folder + "/process.err")
      guard ending == .exited(0) else {
        let errors = (try? ChildProcess.readText(folder + "/process.err")) ?? ""
        let last = errors.split(separator: "\n").last.map(String.init) ?? ""
        return failure("\(ending)\(last.isEmpty ? "" : ": " + last)")
      }
      let table = try ReportTable(contentsOf: report)
      let identity = ReportStatistics.identity.map { table.header.firstIndex(of: $0) }
      let speedColumn = try table.column("requests_per_second")
      var speeds: [Int: Double] = [:]
      for row in table.rows {
        let key = identity.map { $0.map { row[$0] } ?? "" }
        guard let configuration = unit.configurations[key] else {
          return failure(
            "it wrote a row for a configuration the baseline does not have (\(key.joined(separator: ",")))")
        }
        guard let speed = Double(row[speedColumn]) else {
          return failure("requests_per_second '\(row[speedColumn])' is not a number")
        }
        guard speeds[configuration] == nil else { return failure("it wrote one configuration twice") }
        speeds[configuration] = speed
      }
      guard Set(speeds.keys) == Set(unit.configurations.values) else {
        return failure("it wrote \(speeds.count) of the unit's \(Set(unit.configurations.values).count) configurations")
      }
      return .success(speeds)
    } catch {
      return failure(error.description)
    }
  }
}
