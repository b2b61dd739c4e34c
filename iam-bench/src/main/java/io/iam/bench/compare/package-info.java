/**
 * {@code iam compare}: runs {@code iam ycsb} for every engine and workload, each in a JVM of its
 * own, and writes one report (Markdown, HTML, JSON, PNG charts) of them side by side.
 *
 * <p>{@link ComparePlan} decides the runs and their order (pure); {@link ChildLauncher} starts one
 * run's JVM and reads its JSON line; {@link CompareSummary} takes the medians over the repeats;
 * {@link CompareReport} and {@link CompareCharts} write the files.
 */
package io.iam.bench.compare;
