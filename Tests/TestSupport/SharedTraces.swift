/// Every trace under `../shared/traces`, with the format CacheLab reads it as: the registry
/// tests run over (format inference, the stack pass's equivalence with simulation).
public enum SharedTraces {
  public static let all: [(path: String, format: String)] =
    [
      ("adaptsize/request.trace", "id-size"), ("cache2k/web07.trace", "int32-be"), ("cache2k/web12.trace", "int32-be"),
      ("cachelib/kv_traces_1.csv", "cachelib"), ("cachelib/kv_traces_2.csv", "cachelib"),
      ("corda/trace_vaultservice.trace", "int64-be"), ("libcachesim/cloudPhysicsIO.csv", "csv"),
      ("libcachesim/cloudPhysicsIO.oracleGeneral.bin", "oracle-general"), ("libcachesim/cloudPhysicsIO.txt", "txt"),
      ("libcachesim/cloudPhysicsIO.vscsi", "vscsi"), ("scarab/scarab-recs.trace", "int64-be"),
    ]
    + ["2_pools", "backf", "cpp", "cs", "gli", "loop", "multi1", "multi2", "multi3", "ps", "scan", "sprite", "zigzag"]
    .map { ("lirs/\($0).trace", "txt") }
}
