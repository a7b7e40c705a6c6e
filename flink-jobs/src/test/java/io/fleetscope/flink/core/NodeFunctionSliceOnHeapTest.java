package io.fleetscope.flink.core;

/** {@link NodeFunctionSliceTest} on the heap state backend (objects handed out by reference). */
class NodeFunctionSliceOnHeapTest extends NodeFunctionSliceTest {
  @Override
  org.apache.flink.runtime.state.StateBackend backend() {
    return new org.apache.flink.runtime.state.hashmap.HashMapStateBackend();
  }
}
