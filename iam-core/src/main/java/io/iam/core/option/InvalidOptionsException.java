package io.iam.core.option;

import java.util.List;

/**
 * Thrown when options do not validate. Carries every problem found, not only the first, so that a
 * user can fix a configuration in one round.
 */
public final class InvalidOptionsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public InvalidOptionsException(String subject, List<String> problems) {
    super(subject + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem as one sentence that names the key, the value given and what is allowed. */
  public List<String> problems() {
    return problems;
  }
}
