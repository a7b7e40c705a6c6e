package io.fleetscope.sink.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every batch writes its tables in one order, whatever order its topics were polled in. */
class WriteOrderTest {
  @Test
  void tablesByNameWithTheDeadLettersLast() {
    List<String> topics = new ArrayList<>(Topics.all().keySet());
    List<String> tables = new ArrayList<>();
    topics.sort(Tables.WRITE_ORDER);
    topics.forEach(t -> tables.add(Tables.forTopic(t).writeTable()));
    assertThat(tables.get(tables.size() - 1)).isEqualTo("dead_letters");
    assertThat(tables.subList(0, tables.size() - 1)).isSorted().contains("gpu_raw", "ib", "nvlink");
  }

  @Test
  void theOrderDoesNotDependOnThePollOrder() {
    List<String> a = new ArrayList<>(Topics.all().keySet());
    List<String> b = new ArrayList<>(a);
    Collections.reverse(b);
    Collections.shuffle(a, new java.util.Random(7));
    a.sort(Tables.WRITE_ORDER);
    b.sort(Tables.WRITE_ORDER);
    assertThat(a).isEqualTo(b);
  }
}
