package io.iam.bench.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTargets;
import io.iam.core.option.InvalidOptionsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HBase configurations offered as stores of their own, and the stripe engine option. */
class HBasePresetsTest {

  private static final LoadConfig ONE_MIB = LoadConfig.defaults("hbase-iam", 1L << 20, 8L << 20);

  @Test
  void everyPresetIsAStoreWithTheFamilyConfigurationItNames() {
    assertEquals(List.of("hbase", "hbase-stripe", "hbase-binomial", "hbase-minlatency", "hbase-iam", "hbase-lsa"),
        LoadTargets.names().stream().filter(n -> n.startsWith("hbase")).toList());
    assertTrue(LoadTargets.isSeparateBinding("hbase-iam"));

    HBaseOptions stripe = HBaseOptions.parse(HBaseTargetProvider.PRESETS.get("hbase-stripe").apply(ONE_MIB));
    assertEquals(Map.of("hbase.hstore.engine.class", HBaseOptions.STRIPE_ENGINE), stripe.familyConfiguration());
    assertEquals(100, stripe.blockingStoreFiles());

    Map<String, String> iam = HBaseOptions.parse(HBaseTargetProvider.PRESETS.get("hbase-iam").apply(ONE_MIB))
        .familyConfiguration();
    assertEquals("iam", iam.get("iam.engine.tree"));
    assertEquals("1048576", iam.get("iam.engine.node-capacity"), "10 nodes of 2 MiB would not fit in 4 MiB");
    assertEquals("io.iam.hbase.engine.IamStoreEngine", iam.get("hbase.hstore.engine.class"));

    Map<String, String> binomial = HBaseOptions.parse(
        HBaseTargetProvider.PRESETS.get("hbase-binomial").apply(ONE_MIB)).familyConfiguration();
    assertEquals("binomial", binomial.get("iam.compaction.policy"));
    assertEquals("6", binomial.get("iam.compaction.max-components"));
  }

  @Test
  void nodesGrowWhileLevelOneFitsInHalfTheCache() {
    assertEquals(1L << 20, HBaseTargetProvider.nodeCapacity(LoadConfig.defaults("hbase-iam", 1L << 20, 32L << 20)));
    assertEquals(8L << 20, HBaseTargetProvider.nodeCapacity(LoadConfig.defaults("hbase-iam", 1L << 20, 170L << 20)));
    assertEquals(16L << 20, HBaseTargetProvider.nodeCapacity(LoadConfig.defaults("hbase-iam", 1L << 20, 320L << 20)));
    assertEquals(4L << 20, HBaseTargetProvider.nodeCapacity(LoadConfig.defaults("hbase-iam", 4L << 20, 16L << 20)),
        "never below the memtable");
  }

  @Test
  void theStripeEngineTakesNoPolicyAndOnlyKnownEnginesAreAccepted() {
    InvalidOptionsException mixed = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("engine", "stripe", "policy", "binomial")));
    assertTrue(mixed.getMessage().contains("engine=stripe runs HBase's stripe engine"), mixed.getMessage());
    InvalidOptionsException unknown = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("engine", "date-tiered")));
    assertTrue(unknown.getMessage().contains("engine='date-tiered': default or stripe"), unknown.getMessage());
    assertEquals(Map.of(), HBaseOptions.parse(Map.of("engine", "default")).familyConfiguration());
  }

  @Test
  void theBlockingCountCanBeGivenForAnyEngineAndIsChecked() {
    assertEquals(40, HBaseOptions.parse(Map.of("policy", "binomial", "blocking-store-files", "40")).blockingStoreFiles());
    assertEquals(8, HBaseOptions.parse(Map.of("engine", "stripe", "blocking-store-files", "8")).blockingStoreFiles());
    assertEquals(0, HBaseOptions.parse(Map.of()).blockingStoreFiles(), "HBase's own default");
    InvalidOptionsException bad = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("blocking-store-files", "0")));
    assertTrue(bad.getMessage().contains("blocking-store-files='0'"), bad.getMessage());
  }

  @Test
  void theRegionServerKeepsHBasesSettingsUnlessAStoreAsks() {
    assertEquals(RegionServerSettings.HBASE, HBaseOptions.parse(Map.of()).server(), "HBase's own by default");
    assertEquals(RegionServerSettings.HBASE, HBaseOptions.parse(Map.of("compaction-throughput", "hbase",
        "blocking-wait-ms", "hbase")).server());
    assertEquals(new RegionServerSettings(true, 500), HBaseOptions.parse(Map.of("policy", "binomial",
        "compaction-throughput", "unlimited", "blocking-wait-ms", "500")).server());
    InvalidOptionsException badWait = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("blocking-wait-ms", "0")));
    assertTrue(badWait.getMessage().contains("blocking-wait-ms='0'"), badWait.getMessage());
    InvalidOptionsException bad = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("compaction-throughput", "fast")));
    assertTrue(bad.getMessage().contains("compaction-throughput='fast'"), bad.getMessage());
    InvalidOptionsException remote = assertThrows(InvalidOptionsException.class,
        () -> HBaseOptions.parse(Map.of("zookeeper", "zk:2181", "compaction-throughput", "unlimited")));
    assertTrue(remote.getMessage().contains("hbase.regionserver.throughput.controller"), remote.getMessage());
  }
}
