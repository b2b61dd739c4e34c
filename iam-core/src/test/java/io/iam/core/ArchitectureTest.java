package io.iam.core;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.Slice;
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

  /**
   * The trees' deciding kernels (the IAM/LSA planners, the layout planner, the LSbM buffer's
   * planners) are pure as the policies are: no files, streams, clocks, threads, executors, locks or
   * randomness (byte buffers, concurrent maps and an {@code IOException} in a signature are allowed); the engine, HBase and the
   * simulators call them with a picture of the tree and do the work themselves.
   */
  @Test
  void treeKernelsDoNoIoReadNoClockAndStartNoThreads() {
    noClasses().that().resideInAnyPackage("io.iam.core.tree.iam..", "io.iam.core.tree.layout..", "io.iam.core.tree.lsbm..")
        .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.nio.channels..", "java.time..",
            "java.net..", "java.util.concurrent.locks..", "io.iam.core.fs..", "io.iam.core.engine..",
            "io.iam.core.wal..", "io.iam.core.table..")
        .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.Executor.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.Future.class)
        .orShould().dependOnClassesThat().haveNameMatching("java\\.io\\.(File|RandomAccessFile|.*Stream|.*Reader|.*Writer).*")
        .orShould().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.util.Random.class)
        .check(core);
  }

  /** The engine sits on top: nothing below it (kernels, tables, iterators, cost models) imports it. */
  @Test
  void nothingBelowTheEngineImportsIt() {
    noClasses().that().resideOutsideOfPackage("io.iam.core.engine..")
        .should().dependOnClassesThat().resideInAPackage("io.iam.core.engine..")
        .check(core);
  }

  /** The generic iterators and the LSM cost model know no tree, no Min-Max and no engine. */
  @Test
  void iteratorsAndTheCostModelAreGeneric() {
    noClasses().that().resideInAnyPackage("io.iam.core.iter..", "io.iam.core.cost..")
        .should().dependOnClassesThat().resideInAnyPackage("io.iam.core.tree..", "io.iam.core.minmax..",
            "io.iam.core.engine..", "io.iam.core.sim..")
        .check(core);
  }

  /** The manifest records what the trees decide; it knows none of them. */
  @Test
  void theManifestKnowsNoTree() {
    noClasses().that().resideInAPackage("io.iam.core.manifest..")
        .should().dependOnClassesThat().resideInAnyPackage("io.iam.core.tree..", "io.iam.core.minmax..",
            "io.iam.core.engine..", "io.iam.core.policy..", "io.iam.core.sim..")
        .check(core);
  }

  /** The embedded store's own package: its public API and the store itself. */
  private static final String STORE = "io.iam.core.engine";

  /** What the store's trees share: the {@code StoreTree} seam and the parts every tree uses. */
  private static final String SEAM = "io.iam.core.engine.seam..";

  /** Every package below the store: the seam and one package per tree. */
  private static final String BELOW_THE_STORE = "io.iam.core.engine.*..";

  /** The packages of the trees: every package below the store but the seam. */
  private static final DescribedPredicate<JavaClass> IN_A_TREE =
      resideInAPackage(BELOW_THE_STORE).and(not(resideInAPackage(SEAM))).as("reside in a tree package");

  /**
   * The store knows no tree by name: everything that depends on the tree goes through the {@code
   * StoreTree} seam ({@code StoreTrees} picks the implementation), so a new tree never touches it.
   * It uses no class of a tree package, no tree's planner or picker, and names no {@link
   * io.iam.core.engine.TreeKind} constant.
   */
  @Test
  void theStoreKnowsNoTreeByName() {
    var rule = noClasses().that().haveFullyQualifiedName(io.iam.core.engine.IamStore.class.getName())
        .should().dependOnClassesThat(IN_A_TREE)
        .orShould().dependOnClassesThat().resideInAnyPackage("io.iam.core.tree..", "io.iam.core.minmax..",
            "io.iam.core.policy..");
    for (io.iam.core.engine.TreeKind kind : io.iam.core.engine.TreeKind.values()) {
      rule = rule.orShould().accessField(io.iam.core.engine.TreeKind.class, kind.name());
    }
    rule.check(core);
  }

  /**
   * Nothing below the store imports it: the seam and the trees know neither {@code IamStore} nor its
   * public API, its options table included; the factory configures each tree by value.
   */
  @Test
  void theSeamAndTheTreesDoNotImportTheStore() {
    noClasses().that().resideInAPackage(BELOW_THE_STORE)
        .should().dependOnClassesThat().resideInAPackage(STORE)
        .check(core);
  }

  /** The seam sits below every tree: it imports none of them. */
  @Test
  void theSeamKnowsNoTree() {
    noClasses().that().resideInAPackage(SEAM)
        .should().dependOnClassesThat(IN_A_TREE)
        .check(core);
  }

  /** Each tree stands alone on the seam; only LSbM builds on another tree, the leveled one. */
  @Test
  void theTreesDoNotImportEachOther() {
    slices().matching("io.iam.core.engine.(*)..").that(isATree())
        .should().notDependOnEachOther()
        .ignoreDependency(resideInAPackage("io.iam.core.engine.lsbm.."), resideInAPackage("io.iam.core.engine.leveled.."))
        .check(core);
  }

  private static DescribedPredicate<Slice> isATree() {
    return DescribedPredicate.describe("are tree packages", slice -> !slice.getNamePart(1).equals("seam"));
  }

  /** The store, the seam and the trees import each other in one direction only. */
  @Test
  void theEnginesPackagesHaveNoCycles() {
    slices().matching("io.iam.core.(**)")
        .that(DescribedPredicate.describe("are the engine's packages",
            slice -> slice.getNamePart(1).equals("engine") || slice.getNamePart(1).startsWith("engine.")))
        .should().beFreeOfCycles()
        .check(core);
  }

  /** No two packages of iam-core import each other, directly or through others. */
  @Test
  void packagesHaveNoCycles() {
    slices().matching("io.iam.core.(**)").should().beFreeOfCycles().check(core);
  }

  @Test
  void coreStaysFreeOfTheDistributedEngines() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("org.apache.hadoop..", "org.apache.hbase..", "org.apache.hyracks..", "org.apache.asterix..")
        .check(core);
  }
}
