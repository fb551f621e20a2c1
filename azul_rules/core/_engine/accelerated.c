/*
 * The CPython face, the Accelerated and AcceleratedProperty types: ``Accelerated(name, reference)`` is the
 * reference with the engine in front of it, a method (bound without a bound-method
 * object), a function or a property; it learns its class from the class body
 * (__set_name__) and gives the reference every call its engine side does not make.
 */
#include "adapter.h"

#include <string.h>
#include <structmember.h>

/* -- compiled functions ------------------------------------------------------------------------- */

enum { ACCEL_LEGAL_MOVES, ACCEL_APPLY, ACCEL_IS_OVER, ACCEL_LEGAL_ACTIONS, ACCEL_OBSERVE_INTO,
       ACCEL_DEAL_OUTCOMES, ACCEL_NEW_GAME, ACCEL_SUCCESSOR };

static const struct {
    const char *name;
    int method;     /* bound to an instance (0: a function, or a property below) */
    int property;
    Py_ssize_t args;  /* positional arguments, the instance included (-1: the compiled version checks) */
} ACCELERATED[] = {
    {"legal_moves", 1, 0, 1},   {"apply", 1, 0, 2},          {"is_over", 0, 1, 1},
    {"legal_actions", 0, 0, 1}, {"observe_into", 0, 0, -1}, {"deal_outcomes", 0, 0, 2},
    {"new_game", 0, 0, -1},      {"successor", 1, 0, 2},
};

typedef struct {
    PyObject_HEAD
    int which;
    PyObject *reference;
    PyObject *module;
    PyTypeObject *owner;
    vectorcallfunc vectorcall;
} az_accel;

static PyObject *
accel_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    az_accel *fn = (az_accel *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    az_module *m = az_module_of(fn->module);
    PyObject *out = NOT_MINE;
    if (fn->which == ACCEL_NEW_GAME) {
        out = az_new_game_call(m, args, nargs, kwnames);
    } else if (kwnames == NULL
               && (ACCELERATED[fn->which].args < 0 || nargs == ACCELERATED[fn->which].args)) {
        switch (fn->which) {
        case ACCEL_LEGAL_MOVES:
            out = fn->owner != NULL && Py_TYPE(args[0]) == fn->owner ? az_legal_moves_call(m, args[0])
                                                                         : NOT_MINE;
            break;
        case ACCEL_APPLY:
        case ACCEL_SUCCESSOR:
            out = fn->owner != NULL && Py_TYPE(args[0]) == fn->owner
                      ? az_apply_call(m, fn->owner, args[0], args[1]) : NOT_MINE;
            break;
        case ACCEL_LEGAL_ACTIONS:
            out = az_legal_actions_call(m, args, nargs);
            break;
        case ACCEL_OBSERVE_INTO:
            out = az_observe_into_call(m, args, nargs);
            break;
        case ACCEL_DEAL_OUTCOMES:
            out = az_deal_outcomes_call(m, fn->reference, args, nargs);
            break;
        default:
            break;
        }
    }
    if (out != NOT_MINE) {
        return out;
    }
    return PyObject_Vectorcall(fn->reference, args, nargsf, kwnames);
}

static PyObject *
accel_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    const char *name;
    PyObject *reference;
    if (kwargs != NULL || !PyArg_ParseTuple(args, "sO:Accelerated", &name, &reference)) {
        if (kwargs != NULL) {
            PyErr_SetString(PyExc_TypeError, "Accelerated(name, reference) takes no keywords");
        }
        return NULL;
    }
    int which = -1;
    for (size_t i = 0; i < sizeof(ACCELERATED) / sizeof(ACCELERATED[0]); i++) {
        if (strcmp(ACCELERATED[i].name, name) == 0) {
            which = (int)i;
        }
    }
    if (which < 0 || !PyCallable_Check(reference)) {
        PyErr_Format(PyExc_ValueError, "Accelerated(name, reference): no compiled version named %s, or "
                     "a reference that cannot be called", name);
        return NULL;
    }
    PyObject *module = PyType_GetModule(type);
    if (module == NULL) {
        return NULL;
    }
    az_accel *fn = (az_accel *)type->tp_alloc(type, 0);
    if (fn == NULL) {
        return NULL;
    }
    fn->which = which;
    fn->reference = Py_NewRef(reference);
    fn->module = Py_NewRef(module);
    fn->owner = NULL;
    fn->vectorcall = accel_vectorcall;
    return (PyObject *)fn;
}

static int
accel_traverse(az_accel *fn, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(fn));
    Py_VISIT(fn->reference);
    Py_VISIT(fn->module);
    Py_VISIT(fn->owner);
    return 0;
}

static int
accel_clear(az_accel *fn)
{
    Py_CLEAR(fn->reference);
    Py_CLEAR(fn->module);
    Py_CLEAR(fn->owner);
    return 0;
}

static void
accel_dealloc(az_accel *fn)
{
    PyTypeObject *type = Py_TYPE(fn);
    PyObject_GC_UnTrack(fn);
    accel_clear(fn);
    type->tp_free(fn);
    Py_DECREF(type);
}

/* A method binds to the instance; a property computes its value; a function is itself. */
static PyObject *
accel_get(PyObject *self, PyObject *obj, PyObject *type)
{
    (void)type;
    az_accel *fn = (az_accel *)self;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    if (ACCELERATED[fn->which].property) {
        PyObject *out = NOT_MINE;
        if (fn->owner != NULL && Py_TYPE(obj) == fn->owner) {
            out = az_is_over_call(az_module_of(fn->module), obj);
        }
        return out != NOT_MINE ? out : PyObject_CallOneArg(fn->reference, obj);
    }
    if (ACCELERATED[fn->which].method) {
        return PyMethod_New(self, obj);
    }
    return Py_NewRef(self);
}

static int
accel_set(PyObject *self, PyObject *obj, PyObject *value)
{
    (void)self;
    (void)obj;
    (void)value;
    PyErr_SetString(PyExc_AttributeError, "a compiled property cannot be set or deleted");
    return -1;
}

/* The class body names the compiled version's class: the successors it builds are of that class. */
static PyObject *
accel_set_name(PyObject *self, PyObject *args)
{
    PyObject *owner, *name;
    if (!PyArg_ParseTuple(args, "OO:__set_name__", &owner, &name)) {
        return NULL;
    }
    az_accel *fn = (az_accel *)self;
    az_module *m = az_module_of(fn->module);
    if (PyType_Check(owner) && PyType_IsSubtype((PyTypeObject *)owner, m->position_type)) {
        Py_XSETREF(fn->owner, (PyTypeObject *)Py_NewRef(owner));
        Py_XSETREF(m->state_type, (PyTypeObject *)Py_NewRef(owner));
    }
    Py_RETURN_NONE;
}

static PyObject *
accel_attribute(PyObject *self, void *name)
{
    return PyObject_GetAttrString(((az_accel *)self)->reference, (const char *)name);
}

static PyObject *
accel_repr(PyObject *self)
{
    az_accel *fn = (az_accel *)self;
    return PyUnicode_FromFormat("<compiled version of %R>", fn->reference);
}

static PyMethodDef accel_methods[] = {
    {"__set_name__", accel_set_name, METH_VARARGS, "Learns the class the compiled version is defined in."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef accel_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(az_accel, reference), READONLY,
     "The Python reference, which the compiled version gives every call it does not make."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(az_accel, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef accel_getset[] = {
    {"__doc__", accel_attribute, NULL, NULL, "__doc__"},
    {"__name__", accel_attribute, NULL, NULL, "__name__"},
    {"__qualname__", accel_attribute, NULL, NULL, "__qualname__"},
    {"__module__", accel_attribute, NULL, NULL, "__module__"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot accel_slots[] = {
    {Py_tp_new, accel_new}, {Py_tp_dealloc, accel_dealloc}, {Py_tp_traverse, accel_traverse},
    {Py_tp_clear, accel_clear}, {Py_tp_descr_get, accel_get}, {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, accel_methods}, {Py_tp_members, accel_members},
    {Py_tp_getset, accel_getset}, {Py_tp_repr, accel_repr}, {0, NULL},
};
static PyType_Slot accel_property_slots[] = {
    {Py_tp_new, accel_new}, {Py_tp_dealloc, accel_dealloc}, {Py_tp_traverse, accel_traverse},
    {Py_tp_clear, accel_clear}, {Py_tp_descr_get, accel_get}, {Py_tp_descr_set, accel_set},
    {Py_tp_methods, accel_methods}, {Py_tp_members, accel_members},
    {Py_tp_getset, accel_getset}, {Py_tp_repr, accel_repr}, {0, NULL},
};

PyType_Spec az_accel_spec = {
    "azul_rules.core._compiled.Accelerated", sizeof(az_accel), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
        | Py_TPFLAGS_METHOD_DESCRIPTOR, accel_slots,
};
PyType_Spec az_accel_property_spec = {
    "azul_rules.core._compiled.AcceleratedProperty", sizeof(az_accel), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, accel_property_slots,
};
