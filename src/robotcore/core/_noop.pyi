from typing import TypeVar, final

_T = TypeVar("_T")

@final
class Noop:
    def m(self) -> None: ...
    def m1(self, a: _T) -> _T: ...

def noop() -> None: ...
