/**
 * Small pieces the {@code iam} subcommands share: byte sizes for people and from the command line,
 * progress bars on stderr, one-line JSON, temporary directories.
 */
package io.iam.bench.util;
