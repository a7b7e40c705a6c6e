package io.fleetscope.stack.services.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryUsersTest {
  @TempDir Path tmp;

  private static String basic(String userInfo) {
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void acceptsTheUsersOfTheFileAndNothingElse() throws Exception {
    Path f = tmp.resolve("users");
    Files.writeString(f, "# registry writers\nci:pw-with:colon\n\nops:other\n");
    RegistryUsers users = RegistryUsers.load(f);
    assertThat(users.size()).isEqualTo(2);
    assertThat(users.authenticate(basic("ci:pw-with:colon"))).contains("ci");
    assertThat(users.authenticate("basic " + basic("ops:other").substring(6))).contains("ops");
    assertThat(users.authenticate(basic("ci:pw-with"))).isEmpty();
    assertThat(users.authenticate(basic("nobody:other"))).isEmpty();
    assertThat(users.authenticate(basic("nocolon"))).isEmpty();
    assertThat(users.authenticate("Basic !!!not-base64")).isEmpty();
    assertThat(users.authenticate("Bearer abc")).isEmpty();
    assertThat(users.authenticate(null)).isEmpty();
  }

  @Test
  void aMalformedLineIsNamedWithoutItsContent() throws Exception {
    Path f = tmp.resolve("users");
    Files.writeString(f, "ci:ok\nsecretwithoutcolon\n");
    assertThatThrownBy(() -> RegistryUsers.load(f)).hasMessageContaining("line 2").hasMessageContaining("user:password")
        .hasMessageNotContaining("secretwithoutcolon");
    Files.writeString(f, "# nobody\n");
    assertThatThrownBy(() -> RegistryUsers.load(f)).hasMessageContaining("names no user");
    assertThatThrownBy(() -> RegistryUsers.load(tmp.resolve("missing"))).hasMessageContaining("cannot read registry users file");
  }

  @Test
  void writesNeedAuthReadsOnlyWhenAsked() {
    RegistryAuth open = RegistryAuth.open();
    assertThat(open.required("POST")).isFalse();
    assertThat(open.mode()).isEqualTo("none");
    RegistryAuth writes = RegistryAuth.basic(RegistryUsers.of(java.util.Map.of("a", "b")), false);
    for (String m : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
      assertThat(writes.required(m)).as(m).isTrue();
    }
    assertThat(writes.required("GET")).isFalse();
    assertThat(writes.required("HEAD")).isFalse();
    RegistryAuth all = RegistryAuth.basic(RegistryUsers.of(java.util.Map.of("a", "b")), true);
    assertThat(all.required("GET")).isTrue();
    assertThat(all.mode()).isEqualTo("basic-all");
  }
}
