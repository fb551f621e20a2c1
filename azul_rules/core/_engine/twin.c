/*
 * The CPython face, the Twin and TwinProperty types: ``Twin(name, reference)`` is the
 * reference with the engine in front of it, a method (bound without a bound-method
 * object), a function or a property; it learns its class from the class body
 * (__set_name__) and gives the reference every call its engine side does not make.
 */
#include "adapter.h"

#include <string.h>
#include <structmember.h>

/* -- twins ------------------------------------------------------------------------- */

enum { TWIN_LEGAL_MOVES, TWIN_APPLY, TWIN_IS_OVER, TWIN_LEGAL_ACTIONS, TWIN_OBSERVE_INTO,
       TWIN_DEAL_OUTCOMES, TWIN_NEW_GAME, TWIN_SUCCESSOR };

static const struct {
    const char *name;
    int method;     /* bound to an instance (0: a function, or a property below) */
    int property;
    Py_ssize_t args;  /* positional arguments, the instance included (-1: the twin checks) */
} TWINS[] = {
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
} az_twin;

static PyObject *
twin_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    az_twin *twin = (az_twin *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    az_module *m = az_module_of(twin->module);
    PyObject *out = NOT_MINE;
    if (twin->which == TWIN_NEW_GAME) {
        out = az_new_game_call(m, args, nargs, kwnames);
    } else if (kwnames == NULL
               && (TWINS[twin->which].args < 0 || nargs == TWINS[twin->which].args)) {
        switch (twin->which) {
        case TWIN_LEGAL_MOVES:
            out = twin->owner != NULL && Py_TYPE(args[0]) == twin->owner ? az_legal_moves_call(m, args[0])
                                                                         : NOT_MINE;
            break;
        case TWIN_APPLY:
        case TWIN_SUCCESSOR:
            out = twin->owner != NULL && Py_TYPE(args[0]) == twin->owner
                      ? az_apply_call(m, twin->owner, args[0], args[1]) : NOT_MINE;
            break;
        case TWIN_LEGAL_ACTIONS:
            out = az_legal_actions_call(m, args, nargs);
            break;
        case TWIN_OBSERVE_INTO:
            out = az_observe_into_call(m, args, nargs);
            break;
        case TWIN_DEAL_OUTCOMES:
            out = az_deal_outcomes_call(m, twin->reference, args, nargs);
            break;
        default:
            break;
        }
    }
    if (out != NOT_MINE) {
        return out;
    }
    return PyObject_Vectorcall(twin->reference, args, nargsf, kwnames);
}

static PyObject *
twin_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    const char *name;
    PyObject *reference;
    if (kwargs != NULL || !PyArg_ParseTuple(args, "sO:Twin", &name, &reference)) {
        if (kwargs != NULL) {
            PyErr_SetString(PyExc_TypeError, "Twin(name, reference) takes no keywords");
        }
        return NULL;
    }
    int which = -1;
    for (size_t i = 0; i < sizeof(TWINS) / sizeof(TWINS[0]); i++) {
        if (strcmp(TWINS[i].name, name) == 0) {
            which = (int)i;
        }
    }
    if (which < 0 || !PyCallable_Check(reference)) {
        PyErr_Format(PyExc_ValueError, "Twin(name, reference): no compiled twin named %s, or "
                     "a reference that cannot be called", name);
        return NULL;
    }
    PyObject *module = PyType_GetModule(type);
    if (module == NULL) {
        return NULL;
    }
    az_twin *twin = (az_twin *)type->tp_alloc(type, 0);
    if (twin == NULL) {
        return NULL;
    }
    twin->which = which;
    twin->reference = Py_NewRef(reference);
    twin->module = Py_NewRef(module);
    twin->owner = NULL;
    twin->vectorcall = twin_vectorcall;
    return (PyObject *)twin;
}

static int
twin_traverse(az_twin *twin, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(twin));
    Py_VISIT(twin->reference);
    Py_VISIT(twin->module);
    Py_VISIT(twin->owner);
    return 0;
}

static int
twin_clear(az_twin *twin)
{
    Py_CLEAR(twin->reference);
    Py_CLEAR(twin->module);
    Py_CLEAR(twin->owner);
    return 0;
}

static void
twin_dealloc(az_twin *twin)
{
    PyTypeObject *type = Py_TYPE(twin);
    PyObject_GC_UnTrack(twin);
    twin_clear(twin);
    type->tp_free(twin);
    Py_DECREF(type);
}

/* A method binds to the instance; a property computes its value; a function is itself. */
static PyObject *
twin_get(PyObject *self, PyObject *obj, PyObject *type)
{
    (void)type;
    az_twin *twin = (az_twin *)self;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    if (TWINS[twin->which].property) {
        PyObject *out = NOT_MINE;
        if (twin->owner != NULL && Py_TYPE(obj) == twin->owner) {
            out = az_is_over_call(az_module_of(twin->module), obj);
        }
        return out != NOT_MINE ? out : PyObject_CallOneArg(twin->reference, obj);
    }
    if (TWINS[twin->which].method) {
        return PyMethod_New(self, obj);
    }
    return Py_NewRef(self);
}

static int
twin_set(PyObject *self, PyObject *obj, PyObject *value)
{
    (void)self;
    (void)obj;
    (void)value;
    PyErr_SetString(PyExc_AttributeError, "a compiled twin property cannot be set or deleted");
    return -1;
}

/* The class body names the twin's class: the successors it builds are of that class. */
static PyObject *
twin_set_name(PyObject *self, PyObject *args)
{
    PyObject *owner, *name;
    if (!PyArg_ParseTuple(args, "OO:__set_name__", &owner, &name)) {
        return NULL;
    }
    az_twin *twin = (az_twin *)self;
    az_module *m = az_module_of(twin->module);
    if (PyType_Check(owner) && PyType_IsSubtype((PyTypeObject *)owner, m->position_type)) {
        Py_XSETREF(twin->owner, (PyTypeObject *)Py_NewRef(owner));
        Py_XSETREF(m->state_type, (PyTypeObject *)Py_NewRef(owner));
    }
    Py_RETURN_NONE;
}

static PyObject *
twin_attribute(PyObject *self, void *name)
{
    return PyObject_GetAttrString(((az_twin *)self)->reference, (const char *)name);
}

static PyObject *
twin_repr(PyObject *self)
{
    az_twin *twin = (az_twin *)self;
    return PyUnicode_FromFormat("<compiled twin of %R>", twin->reference);
}

static PyMethodDef twin_methods[] = {
    {"__set_name__", twin_set_name, METH_VARARGS, "Learns the class the twin is defined in."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef twin_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(az_twin, reference), READONLY,
     "The Python reference, which the twin gives every call it does not make."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(az_twin, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef twin_getset[] = {
    {"__doc__", twin_attribute, NULL, NULL, "__doc__"},
    {"__name__", twin_attribute, NULL, NULL, "__name__"},
    {"__qualname__", twin_attribute, NULL, NULL, "__qualname__"},
    {"__module__", twin_attribute, NULL, NULL, "__module__"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot twin_slots[] = {
    {Py_tp_new, twin_new}, {Py_tp_dealloc, twin_dealloc}, {Py_tp_traverse, twin_traverse},
    {Py_tp_clear, twin_clear}, {Py_tp_descr_get, twin_get}, {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, twin_methods}, {Py_tp_members, twin_members},
    {Py_tp_getset, twin_getset}, {Py_tp_repr, twin_repr}, {0, NULL},
};
static PyType_Slot twin_property_slots[] = {
    {Py_tp_new, twin_new}, {Py_tp_dealloc, twin_dealloc}, {Py_tp_traverse, twin_traverse},
    {Py_tp_clear, twin_clear}, {Py_tp_descr_get, twin_get}, {Py_tp_descr_set, twin_set},
    {Py_tp_methods, twin_methods}, {Py_tp_members, twin_members},
    {Py_tp_getset, twin_getset}, {Py_tp_repr, twin_repr}, {0, NULL},
};

PyType_Spec az_twin_spec = {
    "azul_rules.core._compiled.Twin", sizeof(az_twin), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
        | Py_TPFLAGS_METHOD_DESCRIPTOR, twin_slots,
};
PyType_Spec az_twin_property_spec = {
    "azul_rules.core._compiled.TwinProperty", sizeof(az_twin), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, twin_property_slots,
};
