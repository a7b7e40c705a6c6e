package io.fleetscope.loadgen.sim;

import java.util.ArrayList;
import java.util.List;

/** The XIDs one GPU raises in one tick, in the order they are reported. */
final class XidEvents {
  private List<Integer> xids;

  void clear() {
    xids = null;
  }

  /** These XIDs instead of any raised so far in the tick. */
  void replaceWith(List<Integer> raised) {
    xids = new ArrayList<>(raised);
  }

  void add(int xid) {
    if (xids == null) {
      xids = new ArrayList<>();
    }
    xids.add(xid);
  }

  List<Integer> list() {
    return xids == null ? List.of() : xids;
  }
}
