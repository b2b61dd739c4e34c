package io.iam.core.minmax;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The Min-Max kernel and the LSM cost model it is compared with are pure: no I/O, clock, threads or
 * randomness, and nothing of the engine.
 */
class MinMaxPurityTest {

  @Test
  void theKernelDoesNoIoReadsNoClockStartsNoThreadsAndKnowsNoEngine() {
    JavaClasses minmax = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.iam.core.minmax", "io.iam.core.cost");
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "java.io..", "java.nio..", "java.time..", "java.net..", "java.util.concurrent..",
            "io.iam.core.engine..", "io.iam.core.table..", "io.iam.core.wal..", "io.iam.core.fs..")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.util.Random.class)
        .check(minmax);
  }
}
