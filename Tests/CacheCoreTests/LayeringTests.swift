import Foundation
import TestSupport
import Testing

/// The module layering that Package.swift's comment states is the one the sources follow:
/// every import of a package module is a declared dependency, from a lower layer.
@Suite struct LayeringTests {
  static let manifest =
    (try? String(contentsOf: Paths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""

  /// Module → layer, from the comment's `//   layer N: A B C — description` lines.
  static func layers() -> [String: Int] {
    var result: [String: Int] = [:]
    for line in manifest.split(separator: "\n") where line.hasPrefix("//   layer ") {
      let body = line.dropFirst("//   layer ".count)
      guard let colon = body.firstIndex(of: ":"), let layer = Int(body[..<colon]) else { continue }
      let names = body[body.index(after: colon)...].split(separator: "—", maxSplits: 1)[0]
      for name in names.split(separator: " ") { result[String(name)] = layer }
    }
    return result
  }

  /// Target → the quoted names in its `dependencies: [...]` (products' names included).
  static func declaredDependencies() -> [String: Set<String>] {
    var result: [String: Set<String>] = [:]
    let pattern = #/\.(?:target|executableTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?/#
    for match in manifest.matches(of: pattern) {
      let list = match.output.2.map(String.init) ?? ""
      result[String(match.output.1)] = Set(list.matches(of: #/"([\w-]+)"/#).map { String($0.output.1) })
    }
    return result
  }

  @Test func everyImportIsDeclaredAndPointsDownward() throws {
    let layers = Self.layers()
    let declared = Self.declaredDependencies()
    let sources = Paths.packageRoot.appendingPathComponent("Sources")
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
    #expect(Set(modules) == Set(layers.keys), "the comment names every module once: \(modules.sorted())")
    var imports = 0
    for module in modules {
      guard
        let files = FileManager.default.enumerator(
          at: sources.appendingPathComponent(module), includingPropertiesForKeys: nil)
      else { continue }
      for case let url as URL in files where url.pathExtension == "swift" {
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard trimmed.hasPrefix("import ") else { continue }
          let imported = String(trimmed.dropFirst("import ".count).split(separator: " ")[0])
          guard let target = layers[imported] else { continue }  // system or external module
          imports += 1
          let place = "\(module)/\(url.lastPathComponent)"
          #expect(
            declared[module]?.contains(imported) == true, "\(place) imports \(imported), not a declared dependency")
          #expect(target < layers[module] ?? 0, "\(place) imports \(imported) from layer \(target), not below")
        }
      }
    }
    #expect(imports > 100)
  }

  /// The build-time promise of Package.swift's comment: only the executable and test targets
  /// depend on Policies above layer 2, and no module above it imports Policies.
  @Test func policiesBuildBesideTheModulesAboveThem() throws {
    let layers = Self.layers()
    let declared = Self.declaredDependencies()
    let dependents = declared.filter { $0.value.contains("Policies") && (layers[$0.key] ?? 0) > 2 }.keys
    #expect(Set(dependents) == ["cachelab"], "modules above layer 2 that depend on Policies: \(dependents.sorted())")
    let sources = Paths.packageRoot.appendingPathComponent("Sources")
    for (module, layer) in layers where layer > 2 {
      let files =
        FileManager.default.enumerator(at: sources.appendingPathComponent(module), includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
      for url in files {
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
          !text.contains("\nimport Policies\n") && !text.hasPrefix("import Policies\n"),
          "\(module)/\(url.lastPathComponent) imports Policies")
      }
    }
  }
}
