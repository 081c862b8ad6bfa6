"""`chatschema validate`: streaming readers, validation backends, the checking loop and the report.

The command is `chatschema.cli`; these modules can also be used directly:

    from chatschema.validate import Options, read_lines, run
    for result in run(read_lines(open("dump.jsonl", "rb"), "dump.jsonl", 1 << 24), Options("docent/ChatMessage")):
        for problem in result.problems:
            print(problem.where, problem.errors or problem.reason)
"""

from chatschema.validate.backends import Checker
from chatschema.validate.reader import Chunk, read_array, read_document, read_lines
from chatschema.validate.run import Options, Problem, Result, run

__all__ = ["Checker", "Chunk", "Options", "Problem", "Result", "read_array", "read_document", "read_lines", "run"]
