package io.iam.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Guards the layering: lower layers never import higher ones, and policies stay pure. */
class ArchitectureTest {

  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.iam.core");
  }

  @Test
  void optionsKnowNothingOfWhatUsesThem() {
    noClasses().that().resideInAPackage("io.iam.core.option..")
        .should().dependOnClassesThat().resideInAnyPackage("io.iam.core.policy..", "io.iam.core.sim..")
        .check(core);
  }

  @Test
  void policiesKnowNothingOfTheSimulator() {
    noClasses().that().resideInAPackage("io.iam.core.policy..")
        .should().dependOnClassesThat().resideInAPackage("io.iam.core.sim..")
        .check(core);
  }

  @Test
  void policiesDoNoIoReadNoClockAndStartNoThreads() {
    noClasses().that().resideInAPackage("io.iam.core.policy..")
        .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio..", "java.time..", "java.net..", "java.util.concurrent..")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.util.Random.class)
        .check(core);
  }

  @Test
  void coreStaysFreeOfTheDistributedEngines() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("org.apache.hadoop..", "org.apache.hbase..", "org.apache.hyracks..", "org.apache.asterix..")
        .check(core);
  }
}
