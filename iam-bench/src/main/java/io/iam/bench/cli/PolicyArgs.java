package io.iam.bench.cli;

import io.iam.core.policy.MergePolicy;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options that choose a merge policy, shared by the commands that run one ({@code simulate},
 * {@code host-experiment}) as a picocli mixin: {@code --policy}, {@code --k} and {@code -o}.
 */
final class PolicyArgs {

  @Option(names = "--policy", paramLabel = "NAME", defaultValue = "binomial",
      completionCandidates = CliConverters.PolicyNames.class,
      description = "Merge policy: ${COMPLETION-CANDIDATES} (see 'iam policies'). Default: ${DEFAULT-VALUE}.")
  String policy;

  @Option(names = "--k", paramLabel = "N",
      description = "Shortcut for -o max-components=N, for the policies that have that option."
          + " Default: the policy's own (6).")
  Integer k;

  @Option(names = {"-o", "--option"}, paramLabel = "KEY=VALUE",
      description = "A policy option (repeatable), e.g. -o ratio=1.5; see 'iam policies'."
          + " Default: none (every option at its default).")
  Map<String, String> options = new LinkedHashMap<>();

  /**
   * A new policy as chosen.
   *
   * @throws io.iam.core.option.InvalidOptionsException naming a bad option
   */
  MergePolicy create() {
    return PolicyChoice.create(policy, k, options);
  }
}
