package io.fleetscope.flink.core;

/** {@link NodeFunctionSliceTest} on RocksDB (every read a fresh copy). */
class NodeFunctionSliceOnRocksDbTest extends NodeFunctionSliceTest {
  @Override
  org.apache.flink.runtime.state.StateBackend backend() {
    return new org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend();
  }
}
