"""`python -m defun.saved_model show PATH`: the signatures and functions of a SavedModel, with
their inputs and outputs, as `saved_model_cli show --all` lists them."""
import argparse
import sys

from defun.saved_model.load import load
from defun.saved_model.restored import RestoredFunction


def _show(path, out):
    root = load(path)
    out.write(f'SavedModel at {path}\n\nSignatures:\n')
    for key, signature in root.signatures.items():
        out.write(f'  {key}:\n    inputs:\n')
        for name, spec in signature.structured_input_signature[1].items():
            out.write(f'      {name}: {spec}\n')
        out.write('    outputs:\n')
        for name, spec in signature.structured_outputs.items():
            out.write(f'      {name}: {spec}\n')
    out.write('\nFunctions:\n')
    for name in sorted(vars(root)):
        fn = vars(root)[name]
        if isinstance(fn, RestoredFunction):
            out.write(f'  {name}: {len(fn.concrete_functions)} concrete function(s)\n')
            for c in fn.concrete_functions:
                args, kwargs = c.structured_input_signature
                out.write(f'    args={args!r} kwargs={kwargs!r}\n')


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m defun.saved_model')
    sub = parser.add_subparsers(dest='command', required=True)
    show = sub.add_parser('show', help='list the signatures and functions of a SavedModel')
    show.add_argument('path')
    args = parser.parse_args(argv)
    _show(args.path, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main())
