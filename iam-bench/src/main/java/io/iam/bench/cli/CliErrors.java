package io.iam.bench.cli;

import io.iam.core.option.InvalidOptionsException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns user errors into one line on stderr and exit code 2: picocli's parse errors, {@link
 * ParameterException}s raised by commands, and {@link InvalidOptionsException}s that escape a
 * command. I/O errors (an output directory that cannot be written) are one line too, with exit
 * code 1. Anything else is a bug and keeps its stack trace.
 */
final class CliErrors implements IParameterExceptionHandler, IExecutionExceptionHandler {

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    return report(cl, ex.getMessage());
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult)
      throws Exception {
    if (ex instanceof InvalidOptionsException) {
      return report(cl, ex.getMessage(), cl.getCommandSpec().exitCodeOnInvalidInput());
    }
    if (ex instanceof IOException || ex instanceof UncheckedIOException) {
      return report(cl, "I/O error: " + ex.getMessage(), cl.getCommandSpec().exitCodeOnExecutionException());
    }
    throw ex;
  }

  private static int report(CommandLine cl, String message) {
    return report(cl, message, cl.getCommandSpec().exitCodeOnInvalidInput());
  }

  private static int report(CommandLine cl, String message, int exitCode) {
    PrintWriter err = cl.getErr();
    err.println(cl.getCommandSpec().qualifiedName() + ": " + message);
    err.flush();
    return exitCode;
  }
}
