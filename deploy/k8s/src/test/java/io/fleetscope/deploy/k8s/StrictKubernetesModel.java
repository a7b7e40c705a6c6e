package io.fleetscope.deploy.k8s;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks Kubernetes' own kinds against fabric8's kubernetes-model, strictly: the model keeps a field
 * it does not know in {@code additionalProperties} instead of failing, so after binding every model
 * object is walked and any such field is reported with its path; scalars are not coerced ("2" is not
 * an integer).
 */
final class StrictKubernetesModel {
  /** The model class of each core kind the manifests may hold, by {@code apiVersion/kind}. */
  static final Map<String, Class<?>> KINDS = Map.ofEntries(
      Map.entry("v1/Namespace", Namespace.class),
      Map.entry("v1/ConfigMap", ConfigMap.class),
      Map.entry("v1/Service", Service.class),
      Map.entry("v1/ServiceAccount", ServiceAccount.class),
      Map.entry("v1/Pod", Pod.class),
      Map.entry("apps/v1/Deployment", Deployment.class),
      Map.entry("apps/v1/StatefulSet", StatefulSet.class),
      Map.entry("apps/v1/DaemonSet", DaemonSet.class),
      Map.entry("batch/v1/Job", Job.class),
      Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
      Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
      Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
      Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class));

  private final ObjectMapper mapper = JsonMapper.builder()
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .build();

  static Optional<Class<?>> modelOf(JsonNode o) {
    return Optional.ofNullable(KINDS.get(o.path("apiVersion").asText() + "/" + o.path("kind").asText()));
  }

  /** The problems of a core object: fields the model does not know, values of the wrong type. */
  List<String> problems(JsonNode object, Class<?> model) {
    List<String> out = new ArrayList<>();
    Object bound;
    try {
      bound = mapper.treeToValue(object, model);
    } catch (Exception e) {
      out.add("does not bind to " + model.getSimpleName() + ": " + e.getMessage().lines().findFirst().orElse(""));
      return out;
    }
    walk(bound, "", out);
    return out;
  }

  /** The problems of an object's metadata, checked as an ObjectMeta (custom resources' schemas leave it open). */
  List<String> metadataProblems(JsonNode object) {
    return problems(object.path("metadata"), ObjectMeta.class).stream().map(p -> "metadata" + p).toList();
  }

  private static void walk(Object o, String path, List<String> out) {
    if (o == null) {
      return;
    }
    if (o instanceof Collection<?> c) {
      int i = 0;
      for (Object e : c) {
        walk(e, path + "[" + i++ + "]", out);
      }
      return;
    }
    if (o instanceof Map<?, ?> m) {
      m.forEach((k, v) -> walk(v, path + "[" + k + "]", out));
      return;
    }
    if (!o.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method g : o.getClass().getMethods()) {
      if (g.getParameterCount() != 0 || Modifier.isStatic(g.getModifiers()) || g.getDeclaringClass() == Object.class) {
        continue;
      }
      String n = g.getName();
      if (!n.startsWith("get") || n.equals("getClass")) {
        continue;
      }
      Object v;
      try {
        v = g.invoke(o);
      } catch (ReflectiveOperationException e) {
        continue;
      }
      if (n.equals("getAdditionalProperties")) {
        if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
          out.add(path + ": unknown field(s) " + extra.keySet());
        }
        continue;
      }
      String field = Character.toLowerCase(n.charAt(3)) + n.substring(4);
      walk(v, path + "." + field, out);
    }
  }
}
