"""help(coopvec) and docstrings describe every public name."""

import inspect
import pydoc

import coopvec
from coopvec import nn, optim


def public_members(obj):
    for name, member in vars(obj).items():
        if not name.startswith("_") and (inspect.isfunction(member) or
                                         isinstance(member, property)):
            yield name, member


def test_every_public_name_has_a_docstring():
    for module in (coopvec, nn, optim):
        assert module.__doc__ and len(module.__doc__) > 100, module
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, (dict, int)):  # nn.LAYOUTS, nn.MAX_WIDTH
                continue
            assert inspect.getdoc(obj), f"{module.__name__}.{name}"
            if inspect.isclass(obj):
                for member_name, member in public_members(obj):
                    assert inspect.getdoc(member), f"{name}.{member_name}"


def test_help_renders():
    text = pydoc.render_doc(coopvec, renderer=pydoc.plaintext)
    for word in ("compile", "Model", "EngineError", "nn", "optim", "backward"):
        assert word in text
    assert "Sequential" in pydoc.render_doc(nn, renderer=pydoc.plaintext)
