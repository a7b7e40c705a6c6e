package io.fleetscope.cli;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the README's module table, checked on the compiled main code of every module (this
 * module depends on all of them): {@code schemas/} at the bottom, the local services and each pipeline
 * component on it and on nothing else of ours, the command line on top. Inside the two largest
 * modules, the packages keep their direction too. A change that imports against it fails here with
 * the offending class and line.
 */
class ArchitectureTest {
  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.fleetscope");
    // an import that found nothing would make every rule below pass
    assertThat(main.containPackage("io.fleetscope.flink.core")).as("flink-jobs classes imported").isTrue();
    assertThat(main.containPackage("io.fleetscope.agent.collectors")).as("agent classes imported").isTrue();
  }

  @Test
  void modulesDependOnlyDownwards() {
    ArchRule modules = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("schemas").definedBy("io.fleetscope.schemas..", "io.fleetscope.serde..")
        .layer("services").definedBy("io.fleetscope.stack..")
        .layer("agent").definedBy("io.fleetscope.agent..")
        .layer("analytics").definedBy("io.fleetscope.flink..")
        .layer("correlator").definedBy("io.fleetscope.streams..")
        .layer("sink").definedBy("io.fleetscope.sink..")
        .layer("loadgen").definedBy("io.fleetscope.loadgen..")
        .layer("console").definedBy("io.fleetscope.console..")
        .layer("cli").definedBy("io.fleetscope.cli..")
        .whereLayer("cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("services").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("agent").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("analytics").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("correlator").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("sink").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("loadgen").mayOnlyBeAccessedByLayers("cli")
        .whereLayer("console").mayOnlyBeAccessedByLayers("cli");
    modules.check(main);
  }

  @Test
  void schemasDependOnNoOtherModule() {
    ArchRuleDefinition.noClasses().that().resideInAnyPackage("io.fleetscope.schemas..", "io.fleetscope.serde..")
        .should().dependOnClassesThat().resideInAnyPackage("io.fleetscope.stack..", "io.fleetscope.agent..",
            "io.fleetscope.flink..", "io.fleetscope.streams..", "io.fleetscope.sink..", "io.fleetscope.loadgen..",
            "io.fleetscope.console..", "io.fleetscope.cli..")
        .check(main);
  }

  @Test
  void agentCollectorPackagesFormNoCycles() {
    slices().matching("io.fleetscope.agent.collectors.(*)..").should().beFreeOfCycles().check(main);
  }

  @Test
  void analyticPackagesFormNoCycles() {
    slices().matching("io.fleetscope.flink.(*)..").should().beFreeOfCycles().check(main);
  }
}
