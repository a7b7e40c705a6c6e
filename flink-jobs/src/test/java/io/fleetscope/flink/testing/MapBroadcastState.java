package io.fleetscope.flink.testing;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.state.BroadcastState;

/** A broadcast state over a plain map, for tests of what is kept in broadcast state. */
public final class MapBroadcastState<K, V> implements BroadcastState<K, V> {
  public final Map<K, V> m = new HashMap<>();

  @Override public void put(K key, V value) { m.put(key, value); }
  @Override public void putAll(Map<K, V> map) { m.putAll(map); }
  @Override public void remove(K key) { m.remove(key); }
  @Override public Iterator<Map.Entry<K, V>> iterator() { return m.entrySet().iterator(); }
  @Override public Iterable<Map.Entry<K, V>> entries() { return m.entrySet(); }
  @Override public V get(K key) { return m.get(key); }
  @Override public boolean contains(K key) { return m.containsKey(key); }
  @Override public Iterable<Map.Entry<K, V>> immutableEntries() { return Map.copyOf(m).entrySet(); }
  @Override public void clear() { m.clear(); }
}
