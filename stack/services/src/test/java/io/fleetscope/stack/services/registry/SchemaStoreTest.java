package io.fleetscope.stack.services.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class SchemaStoreTest {
  private static final String GPU = GpuSample.getClassSchema().toString();
  private static final String IB = IbPortSample.getClassSchema().toString();

  /** GpuSample as an older agent wrote it: without the last optional field. */
  private static String olderGpu() {
    Schema full = GpuSample.getClassSchema();
    java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
    for (Schema.Field field : full.getFields()) {
      if (!field.name().equals("energy_mj")) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields).toString();
  }

  @Test
  void idsAreGlobalAndVersionsPerSubject() {
    SchemaStore s = new SchemaStore(new InMemorySchemaLog(), CompatibilityLevel.BACKWARD);
    int old = s.register("fleet.gpu.v1-value", olderGpu(), null);
    int current = s.register("fleet.gpu.v1-value", GPU, "AVRO");
    int ib = s.register("fleet.ib.v1-value", IB, null);
    assertThat(s.register("mirror.gpu-value", GPU, null)).isEqualTo(current);
    assertThat(new int[] {old, current, ib}).containsExactly(1, 2, 3);
    assertThat(s.versions("fleet.gpu.v1-value")).containsExactly(1, 2);
    assertThat(s.versions("mirror.gpu-value")).containsExactly(1);
    assertThat(s.usesOf(current)).extracting(SchemaStore.SchemaVersion::subject)
        .containsExactlyInAnyOrder("fleet.gpu.v1-value", "mirror.gpu-value");
  }

  @Test
  void replayingTheLogRebuildsTheSameState() {
    InMemorySchemaLog log = new InMemorySchemaLog();
    SchemaStore a = new SchemaStore(log, CompatibilityLevel.BACKWARD);
    a.register("fleet.gpu.v1-value", olderGpu(), null);
    a.register("fleet.gpu.v1-value", GPU, null);
    a.register("fleet.ib.v1-value", IB, null);
    a.deleteSubject("fleet.ib.v1-value");
    a.setLevel("fleet.gpu.v1-value", CompatibilityLevel.FULL);
    a.setLevel(null, CompatibilityLevel.NONE);

    SchemaStore b = new SchemaStore(log, CompatibilityLevel.BACKWARD);
    assertThat(b.subjects()).containsExactly("fleet.gpu.v1-value");
    assertThat(b.subjects(true)).containsExactly("fleet.gpu.v1-value", "fleet.ib.v1-value");
    assertThat(b.version("fleet.gpu.v1-value", "latest")).isEqualTo(a.version("fleet.gpu.v1-value", "latest"));
    assertThat(b.schemaById(3)).isEqualTo(IB);
    assertThat(b.subjectLevel("fleet.gpu.v1-value")).contains(CompatibilityLevel.FULL);
    assertThat(b.globalLevel()).isEqualTo(CompatibilityLevel.NONE);
    // the next id continues after the highest one in the log
    assertThat(b.register("other-value", "\"string\"", null)).isEqualTo(4);
  }

  @Test
  void aFailedWriteIsAStoreErrorAndChangesNothing() {
    InMemorySchemaLog log = new InMemorySchemaLog();
    SchemaStore s = new SchemaStore(log, CompatibilityLevel.BACKWARD);
    log.failWrites = true;
    assertThatThrownBy(() -> s.register("fleet.gpu.v1-value", GPU, null))
        .isInstanceOfSatisfying(RegistryException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(500);
          assertThat(e.errorCode()).isEqualTo(50001);
          assertThat(e.getMessage()).contains("broker unavailable");
        });
    assertThat(s.subjects()).isEmpty();
    log.failWrites = false;
    assertThat(s.register("fleet.gpu.v1-value", GPU, null)).isEqualTo(1);
  }

  @Test
  void aLostAcknowledgementNeverHandsOutAnIdTwice() {
    InMemorySchemaLog log = new InMemorySchemaLog();
    SchemaStore s = new SchemaStore(log, CompatibilityLevel.BACKWARD);
    log.loseAcks = true;
    assertThatThrownBy(() -> s.register("fleet.gpu.v1-value", GPU, null))
        .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(50001));
    log.loseAcks = false;
    // the GPU schema did land as id 1: the IB schema must get 2, and GPU again must answer 1
    assertThat(s.register("fleet.ib.v1-value", IB, null)).isEqualTo(2);
    assertThat(s.register("fleet.gpu.v1-value", GPU, null)).isEqualTo(1);
    SchemaStore replayed = new SchemaStore(log, CompatibilityLevel.BACKWARD);
    assertThat(replayed.schemaById(1)).isEqualTo(GPU);
    assertThat(replayed.schemaById(2)).isEqualTo(IB);
    assertThat(replayed.versions("fleet.gpu.v1-value")).containsExactly(1);
  }

  @Test
  void transitiveLevelsCheckEveryLiveVersion() {
    String a = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}";
    // drops x and adds y with a default: backward compatible with a (x is ignored, y defaulted)
    String b = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"y\",\"type\":\"int\",\"default\":0}]}";
    // requires x again, without default: compatible with b? no (b has no x); with a: yes
    String c = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"y\",\"type\":\"int\",\"default\":0},"
        + "{\"name\":\"z\",\"type\":\"long\",\"default\":0}]}";
    String d = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]}";
    SchemaStore s = new SchemaStore(new InMemorySchemaLog(), CompatibilityLevel.BACKWARD);
    s.setLevel("t-value", CompatibilityLevel.NONE);
    s.register("t-value", a, null);
    s.register("t-value", b, null);
    s.register("t-value", c, null);
    // d reads a's data (int promotes to long) but not b's or c's (no x there, no default)
    s.setLevel("t-value", CompatibilityLevel.BACKWARD);
    assertThat(s.checkCompatibility("t-value", "1", d, null)).isEmpty();
    assertThat(s.checkCompatibility("t-value", "latest", d, null)).isNotEmpty();
    s.setLevel("t-value", CompatibilityLevel.BACKWARD_TRANSITIVE);
    assertThat(s.checkCompatibility("t-value", "latest", d, null)).hasSize(2);
  }

  @Test
  void concurrentRegistrationsOfOneSchemaGetOneIdAndOneVersion() throws Exception {
    SchemaStore s = new SchemaStore(new InMemorySchemaLog(), CompatibilityLevel.BACKWARD);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.List<java.util.concurrent.Future<Integer>> ids = new java.util.ArrayList<>();
      for (int i = 0; i < 64; i++) {
        String subject = i % 2 == 0 ? "a-value" : "b-value";
        ids.add(pool.submit(() -> s.register(subject, GPU, null)));
      }
      java.util.Set<Integer> distinct = new java.util.HashSet<>();
      for (var f : ids) {
        distinct.add(f.get());
      }
      assertThat(distinct).containsExactly(1);
      assertThat(s.versions("a-value")).containsExactly(1);
      assertThat(s.versions("b-value")).containsExactly(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void invalidInputGetsConfluentCodes() {
    SchemaStore s = new SchemaStore(new InMemorySchemaLog(), CompatibilityLevel.BACKWARD);
    assertCode(() -> s.register("x", "{\"type\":\"record\"}", null), 42201);
    assertCode(() -> s.register("x", "", null), 42201);
    assertCode(() -> s.register("x", "{}", "JSON"), 42201);
    assertCode(() -> s.version("x", "latest"), 40401);
    s.register("x", GPU, null);
    assertCode(() -> s.version("x", "2"), 40402);
    assertCode(() -> s.version("x", "0"), 42202);
    assertCode(() -> s.version("x", "1.5"), 42202);
    assertCode(() -> s.schemaById(99), 40403);
    assertCode(() -> s.lookup("x", IB, null), 40403);
    assertCode(() -> s.deleteSubjectLevel("x"), 40408);
    assertCode(() -> CompatibilityLevel.parse("sideways"), 42203);
  }

  private static void assertCode(Runnable r, int code) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(RegistryException.class,
        e -> assertThat(e.errorCode()).isEqualTo(code));
  }
}
