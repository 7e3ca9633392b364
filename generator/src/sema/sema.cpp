// Schemas -> the types Model: one walk that names, types and orders every node. Over 600 lines on
// purpose: the walk's passes share its state (name scopes, units, interned structures); what does
// not share it lives beside it (constraints_of, well_known, structure_ids).
#include "sema/sema.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "sema/constraints_of.hpp"
#include "sema/protobuf_of.hpp"
#include "sema/rrgen_extensions.hpp"
#include "sema/rules_schema.hpp"
#include "sema/structure_ids.hpp"
#include "sema/well_known.hpp"
#include "support/naming.hpp"

namespace rrgen {
namespace {

std::string join_ns(const std::string& root, const std::vector<std::string>& segments) {
  std::string out = root;
  for (const auto& s : segments) out += (out.empty() ? "" : "::") + s;
  return out;
}

std::string ns_path(const std::string& ns) {
  std::string out;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (ns.compare(i, 2, "::") == 0) {
      out += '/';
      ++i;
    } else {
      out += ns[i];
    }
  }
  return out;
}

std::string root_ns_or(const SemaOptions& o, const std::string& fallback) {
  if (o.root_namespace.empty()) return fallback;
  std::string r = o.root_namespace;
  if (r.rfind("::", 0) == 0) r = r.substr(2);
  return r;
}

bool is_string_enum(const Schema& s) {
  if (s.enum_json.empty() || s.type != "string") return false;
  return std::all_of(s.enum_json.begin(), s.enum_json.end(), [](const std::string& j) { return !j.empty() && j[0] == '"'; });
}

bool looks_like_quantity(const Schema& s) {
  return s.pattern && s.pattern->find("[KMGTPE]i") != std::string::npos && s.pattern->find("[numkMGTPE]") != std::string::npos;
}

class Builder {
 public:
  Builder(const SemaOptions& o, Diagnostics& d) : opts_(o), diags_(d) {}

  Model run(const InputSet& in) {
    // Kind names are claimed before any nested type, so a kind is never renamed because another
    // kind's nested object happened to be named first ("Backup" + "schedule" vs "BackupSchedule").
    for (const auto& crd : in.crds)
      for (const auto& v : crd.versions)
        if (v.served && v.schema) {
          const std::string ns = crd_namespace(crd, v);
          bool renamed = false;
          std::string name = scope_for(ns).claim(pascal_case(crd.kind), &renamed);
          if (renamed) {
            diags_.warning(crd.location, "name-collision", "kind '" + crd.kind + "' maps to the C++ name '" + pascal_case(crd.kind) +
                                                               "', already used in namespace " + ns + "; it is named '" + name + "'");
          }
          kind_names_[&v] = name;
        }
    for (const auto& doc : in.documents)
      for (const auto& def : doc.definitions) check_rrgen_extensions(def, diags_);
    if (!opts_.codec_only_for.empty()) {
      build_codec_unit(in);
      mark_protobuf_structs(model_);
      return std::move(model_);
    }
    for (const auto& doc : in.documents)
      for (const auto& def : doc.definitions) {
        if (mapped(def) || def.schema->properties.empty()) continue;
        auto [segments, last] = split_definition(def.name);
        const std::string ns = join_ns(root_ns_or(opts_, "k8s"), segments);
        if (!definition_names_.count(def.name)) definition_names_[def.name] = scope_for(ns).claim(pascal_case(last));
      }
    for (const auto& crd : in.crds) build_crd(crd);
    build_openapi(in);
    mark_protobuf_structs(model_);
    return std::move(model_);
  }

 private:
  // ---- shared ----------------------------------------------------------------------------------

  NameScope& scope_for(const std::string& ns) {
    auto [it, inserted] = scopes_.try_emplace(ns, NameScope(true));
    return it->second;
  }

  Unit* new_unit(const std::string& ns, const std::string& stem, const std::string& origin) {
    auto u = std::make_unique<Unit>();
    u->ns = ns;
    u->path = ns_path(ns) + "/" + stem;
    u->origin = origin;
    for (const auto& other : model_.units) {
      if (other->path == u->path) {
        // Two kinds whose file names coincide (e.g. "Foo" and "foo"): keep both, deterministically.
        u->path += "_" + std::to_string(model_.units.size());
      }
    }
    model_.units.push_back(std::move(u));
    return model_.units.back().get();
  }

  struct Pending {
    StructDef* def;
    const Schema* schema;
  };

  StructDef* new_struct(Unit& u, const Schema& s, const std::string& wanted, bool preclaimed = false) {
    auto def = std::make_unique<StructDef>();
    bool renamed = false;
    def->name = preclaimed ? wanted : scope_for(u.ns).claim(wanted, &renamed);
    if (renamed) {
      diags_.warning(s.location, "name-collision", "type name '" + wanted + "' is already used in namespace " + u.ns + "; this object is named '" + def->name + "'");
    }
    def->qualified = "::" + u.ns + "::" + def->name;
    def->unit = &u;
    def->constraints = constraints(&s);
    def->location = s.location;
    StructDef* raw = def.get();
    u.structs.push_back(std::move(def));
    pending_.push_back({raw, &s});
    return raw;
  }

  EnumDef* enum_for(Unit& u, const Schema& s, const std::string& wanted) {
    std::string key = u.path;  // per unit: a unit's header must be self-contained
    for (const auto& e : s.enum_json) key += '\x1f' + e;
    if (auto it = enums_.find(key); it != enums_.end()) return it->second;
    auto e = std::make_unique<EnumDef>();
    bool renamed = false;
    e->name = scope_for(u.ns).claim(wanted, &renamed);
    if (renamed) {
      diags_.warning(s.location, "name-collision", "enum type '" + wanted + "' is already a name in namespace " + u.ns + "; it is named '" + e->name + "'");
    }
    e->qualified = "::" + u.ns + "::" + e->name;
    NameScope names(true);
    for (const auto& j : s.enum_json) {
      std::string v = json_string_value(j);
      if (std::find(e->values.begin(), e->values.end(), v) != e->values.end()) continue;  // duplicate values
      bool clash = false;
      e->enumerators.push_back(names.claim(enumerator_name(v), &clash));
      if (clash) {
        diags_.warning(s.location, "name-collision", "enum value " + j + " maps to the enumerator '" + enumerator_name(v) +
                                                         "', already used in " + e->name + "; it is named '" + e->enumerators.back() + "'");
      }
      e->values.push_back(std::move(v));
    }
    EnumDef* raw = e.get();
    u.enums.push_back(std::move(e));
    enums_[key] = raw;
    return raw;
  }

  // The C++ type of a schema node. `hint` names any struct or enum this node needs.
  TypeRef type_of(Unit& u, const Schema& s, const std::string& hint) {
    TypeRef t;
    t.constraints = constraints(&s);
    if (!s.ref.empty()) return ref_type(u, s, hint);
    if (s.int_or_string) {
      t.kind = looks_like_quantity(s) ? TypeKind::Quantity : TypeKind::IntOrString;
      return t;
    }
    const std::string& type = s.type;
    if (type == "object" || (type.empty() && (!s.properties.empty() || s.additional_properties))) {
      if (!s.properties.empty()) {
        if (auto wk = well_known(s)) {
          t.kind = TypeKind::External;
          t.external = *wk;
          return t;
        }
        t.kind = TypeKind::Struct;
        t.def = struct_for(u, s, hint);
        return t;
      }
      if (s.embedded_resource) {
        t.kind = TypeKind::External;
        t.external = "rr::EmbeddedResource";
        return t;
      }
      if (s.additional_properties) {
        t.kind = TypeKind::Map;
        t.element = std::make_shared<TypeRef>(type_of(u, *s.additional_properties, hint));
        t.element->nullable = s.additional_properties->nullable;
        unbox_within_unit(u, *t.element);
        return t;
      }
      if (s.additional_properties_any) {
        t.kind = TypeKind::Map;
        t.element = std::make_shared<TypeRef>();
        t.element->kind = TypeKind::Json;
        return t;
      }
      t.kind = TypeKind::Json;
      return t;
    }
    if (type == "array") {
      t.kind = TypeKind::Array;
      if (s.items) {
        t.element = std::make_shared<TypeRef>(type_of(u, *s.items, hint));
        t.element->nullable = s.items->nullable;
        unbox_within_unit(u, *t.element);
      } else {
        t.element = std::make_shared<TypeRef>();  // reported by the reader; keep going
      }
      return t;
    }
    if (type == "string") {
      // A hand-declared struct holds a string enum as std::string (rr::Condition::status).
      if (is_string_enum(s) && opts_.codec_only_for.empty()) {
        t.kind = TypeKind::Enum;
        t.en = enum_for(u, s, hint);
      } else if (s.format == "date-time") {
        t.kind = TypeKind::Time;
      } else if (s.format == "byte") {
        t.kind = TypeKind::Bytes;
      } else {
        t.kind = TypeKind::String;
      }
      return t;
    }
    if (type == "integer") {
      t.kind = s.format == "int32" ? TypeKind::Int32 : TypeKind::Int64;
      return t;
    }
    if (type == "number") {
      t.kind = TypeKind::Double;
      return t;
    }
    if (type == "boolean") {
      t.kind = TypeKind::Bool;
      return t;
    }
    t.kind = TypeKind::Json;  // untyped and preserve-unknown, or already reported
    return t;
  }

  // std::vector and std::map hold an incomplete type (as Go's []T and map[string]T do), and
  // within one unit every struct is complete before any special member is instantiated; across
  // units a box keeps the other unit's header out of this one.
  static void unbox_within_unit(const Unit& u, TypeRef& element) {
    if (element.boxed && !element.nullable && element.def->unit == &u) element.boxed = false;
  }

  StructDef* struct_for(Unit& u, const Schema& s, const std::string& hint) {
    const int id = ids_.id(s);
    auto key = std::make_pair(&u, id);
    if (auto it = dedup_.find(key); it != dedup_.end()) return it->second;
    StructDef* def = new_struct(u, s, hint);
    dedup_[key] = def;
    return def;
  }

  // Fills the members of one struct; nested structs it discovers are queued (breadth-first, so
  // the shallowest occurrence of a deduplicated structure names it).
  void fill(StructDef& def, const Schema& s) {
    Unit& u = *const_cast<Unit*>(def.unit);
    NameScope members;
    for (const char* m :
         {"unknown_fields", "rr_decode", "rr_encode", "rr_validate", "rr_apply_defaults", "rr_special_member"})
      members.reserve(m);
    def.go_struct = s.rrgen.go_json;
    if (!s.rrgen.unknown_fields.empty()) members.reserve(def.unknown_member = s.rrgen.unknown_fields);
    if (def.is_root) {
      for (const char* m : {"validate", "apply_defaults", "to_json_text", "from_json_text"}) members.reserve(m);
    }
    auto add_root_member = [&](const char* json, const char* cpp, TypeKind kind, const std::string& external,
                               std::string init) {
      FieldDef f;
      f.json_name = json;
      f.cpp_name = members.claim(cpp);
      f.type.kind = kind;
      f.type.external = external;
      f.type.constraints = constraints(s.property(json));
      f.constraints = f.type.constraints;
      f.presence = Presence::Value;
      f.location = s.location;
      f.initializer = std::move(init);
      f.pb = protobuf_of(s.property(json), f.type);
      def.fields.push_back(std::move(f));
    };
    if (def.is_root) {
      add_root_member("apiVersion", "api_version", TypeKind::String, "", quote(api_version_of(u)));
      add_root_member("kind", "kind", TypeKind::String, "", quote(u.kind ? u.kind->kind : def.name));
      add_root_member("metadata", "metadata", TypeKind::External, "rr::ObjectMeta", "");
      // A CRD may restrict metadata.name and metadata.generateName (structural rule 4).
      if (const Schema* meta = s.property("metadata")) {
        def.metadata_name = constraints(meta->property("name"));
        def.metadata_generate_name = constraints(meta->property("generateName"));
      }
    }
    if (s.embedded_resource) {
      for (auto [json, cpp] : {std::pair{"apiVersion", "api_version"}, {"kind", "kind"}}) {
        if (s.property(json)) continue;
        FieldDef f;
        f.json_name = json;
        f.cpp_name = members.claim(cpp);
        f.type.kind = TypeKind::String;
        f.location = s.location;
        f.required = true;  // the API server requires both in an embedded resource
        def.fields.push_back(std::move(f));
      }
      if (!s.property("metadata")) {
        FieldDef f;
        f.json_name = "metadata";
        f.cpp_name = members.claim("metadata");
        f.type.kind = TypeKind::External;
        f.type.external = "rr::ObjectMeta";
        f.location = s.location;
        def.fields.push_back(std::move(f));
      }
    }
    for (std::size_t i = 0; i < s.properties.size(); ++i) {
      const auto& [json, prop] = s.properties[i];
      if (def.is_root && (json == "apiVersion" || json == "kind" || json == "metadata")) continue;
      FieldDef f;
      f.json_name = json;
      bool renamed = false;
      const std::string wanted = prop->rrgen.cpp_name.empty() ? field_name(json) : prop->rrgen.cpp_name;
      f.cpp_name = members.claim(wanted, &renamed);
      f.location = s.property_locations[i];
      f.constraints = constraints(prop.get());
      f.required = s.is_required(json);
      if (renamed) {
        diags_.warning(f.location, "name-collision",
                       "property '" + json + "' maps to the C++ name '" + wanted + "', already used in " +
                           def.name + "; it is named '" + f.cpp_name + "'");
      }
      if (prop->rrgen.json_text) {
        f.type.kind = TypeKind::JsonText;
        f.type.constraints = f.constraints;
      } else if (s.embedded_resource && json == "metadata") {
        f.type.kind = TypeKind::External;
        f.type.external = "rr::ObjectMeta";
        f.type.constraints = f.constraints;
      } else {
        f.type = type_of(u, *prop, def.name + pascal_case(json));
      }
      f.pb = protobuf_of(prop.get(), f.type);
      if (def.go_struct) {
        // Go's encoding/json: pointers are optional; other members are plain, and kube-openapi
        // lists exactly the members without `omitempty` as required.
        f.presence = prop->rrgen.go_pointer ? Presence::Optional : Presence::Go;
        f.omit_empty = f.presence == Presence::Go && !f.required;
        if (f.omit_empty && !go_omittable(f.type.kind))
          diags_.error(f.location, "rrgen-extension", "member '" + json + "' of an x-rrgen-go-json struct is omitempty, but rrgen cannot tell when a value of its type is empty");
      } else if (prop->nullable) f.presence = Presence::Nullable;
      else if (f.required && !prop->default_json) f.presence = Presence::Required;
      else f.presence = Presence::Optional;
      if (f.type.boxed && f.presence != Presence::Optional && f.presence != Presence::Nullable) {
        diags_.error(f.location, "openapi-recursive-ref",
                     "member '" + json + "' of '" + def.name + "' requires a value of a type that contains '" +
                         def.name + "' again: no finite object has it (make it optional)");
      }
      def.fields.push_back(std::move(f));
    }
    // Claimed after the properties, so a property of the same name keeps it.
    const bool has_required = std::any_of(def.fields.begin(), def.fields.end(),
                                          [](const FieldDef& f) { return f.presence == Presence::Required; });
    if (has_required && opts_.codec_only_for.empty()) def.missing_member = members.claim("missing_required");
    for (const auto& r : s.required)
      if (!s.property(r) && !(def.is_root && (r == "apiVersion" || r == "kind" || r == "metadata")))
        def.undeclared_required.push_back(r);
  }

  void drain(Unit& u) {
    while (!pending_.empty()) {
      Pending p = pending_.front();
      pending_.pop_front();
      fill(*p.def, *p.schema);
    }
    order_structs(u);
  }

  // Emission order: each struct after the structs it holds by value.
  void order_structs(Unit& u) {
    std::vector<std::unique_ptr<StructDef>> sorted;
    std::set<const StructDef*> done;
    std::map<const StructDef*, std::unique_ptr<StructDef>*> owner;
    for (auto& s : u.structs) owner[s.get()] = &s;
    std::function<void(const TypeRef&)> visit_type;
    std::function<void(const StructDef*)> visit = [&](const StructDef* d) {
      if (!done.insert(d).second) return;
      for (const auto& f : d->fields) visit_type(f.type);
      sorted.push_back(std::move(*owner[d]));
    };
    visit_type = [&](const TypeRef& t) {
      if (t.kind == TypeKind::Struct && t.def->unit == &u && !t.boxed) visit(t.def);
      if (t.element) visit_type(*t.element);
    };
    std::vector<const StructDef*> all;
    for (auto& s : u.structs) all.push_back(s.get());
    for (const auto* d : all) visit(d);
    u.structs = std::move(sorted);
  }

  static std::string quote(const std::string& s) { return "\"" + s + "\""; }

  // One Constraints per schema node, shared by the field and the type that both describe it.
  std::shared_ptr<const Constraints> constraints(const Schema* s) {
    if (!s) return nullptr;
    auto& c = constraints_[s];
    if (!c) c = std::make_shared<const Constraints>(constraints_of(*s));
    return c;
  }

  static std::string api_version_of(const Unit& u) {
    if (!u.kind) return "";
    return u.kind->group.empty() ? u.kind->version : u.kind->group + "/" + u.kind->version;
  }

  // ---- CRDs -----------------------------------------------------------------------------------

  std::string crd_namespace(const Crd& crd, const CrdVersion& v) const {
    return join_ns(root_ns_or(opts_, namespace_segment(crd.group.empty() ? "core" : crd.group)), {namespace_segment(v.name)});
  }

  void build_crd(const Crd& crd) {
    const std::string origin = crd.location.file ? *crd.location.file : std::string();
    for (const auto& v : crd.versions) {
      if (!v.served || !v.schema) continue;
      const std::string ns = crd_namespace(crd, v);
      Unit* u = new_unit(ns, file_stem(crd.kind), origin);
      KindInfo k;
      k.group = crd.group;
      k.version = v.name;
      k.kind = crd.kind;
      k.plural = crd.plural;
      k.singular = crd.singular;
      k.list_kind = crd.list_kind;
      k.short_names = crd.short_names;
      k.categories = crd.categories;
      k.namespaced = crd.namespaced;
      k.has_status = v.status_subresource;
      k.has_scale = v.scale_subresource;
      k.storage = v.storage;
      k.served = v.served;
      k.deprecated = v.deprecated;
      k.verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
      u->kind = k;
      StructDef* root = new_struct(*u, *v.schema, kind_names_.at(&v), true);
      root->is_root = true;
      u->root = root;
      u->rules_schema = rules_schema_json(*v.schema);
      drain(*u);
    }
  }

  // ---- OpenAPI documents ------------------------------------------------------------------------

  // "io.k8s.api.apps.v1.Deployment" -> {"apps", "v1"}, "Deployment"
  static std::pair<std::vector<std::string>, std::string> split_definition(const std::string& name) {
    std::string rest = name;
    for (const char* prefix : {"io.k8s.api.", "io.k8s.apimachinery.pkg.apis.", "io.k8s.apimachinery.pkg.",
                               "io.k8s.kube-aggregator.pkg.apis.", "io.k8s.apiextensions-apiserver.pkg.apis.", "io.k8s."}) {
      if (rest.rfind(prefix, 0) == 0) {
        rest = rest.substr(std::string(prefix).size());
        break;
      }
    }
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= rest.size(); ++i) {
      if (i == rest.size() || rest[i] == '.') {
        parts.push_back(rest.substr(start, i - start));
        start = i + 1;
      }
    }
    std::string last = parts.back();
    parts.pop_back();
    for (auto& p : parts) p = namespace_segment(p);
    return {parts, last};
  }

  TypeRef ref_type(Unit& u, const Schema& s, const std::string& hint) {
    (void)hint;
    if (auto wk = mapped_definition(s.ref)) {
      wk->constraints = constraints(&s);
      return *wk;
    }
    auto it = definitions_.find(s.ref);
    if (it == definitions_.end()) {
      diags_.error(s.location, "openapi-bad-ref", "$ref to unknown schema '" + s.ref + "'");
      TypeRef t;
      t.constraints = constraints(&s);
      return t;
    }
    const OpenApiDefinition& def = *it->second;
    const Schema& target = *def.schema;
    if (target.properties.empty()) {
      // Scalar, map and schemaless definitions are used in place (no struct of their own).
      if (!inlining_.insert(s.ref).second) {
        // Once per definition, however many references lead into the cycle.
        if (reported_cycles_.insert(s.ref).second) {
          diags_.error(def.schema->location, "openapi-recursive-ref",
                       "schema '" + def.name +
                           "' contains itself but has no properties, so it has no struct to hold "
                           "the cycle: give it properties or break the cycle");
        }
        return TypeRef{};
      }
      TypeRef t = type_of(u, target, split_definition(def.name).second);
      inlining_.erase(s.ref);
      return t;
    }
    if (!opts_.codec_only_for.empty()) {
      diags_.error(s.location, "rrgen-extension", "$ref to '" + s.ref + "', which has no x-rrgen-cpp-type: --codec-only generates only the codec of hand-declared structs");
      return TypeRef{};
    }
    Unit* target_unit = definition_unit(def);
    TypeRef t;
    t.kind = TypeKind::Struct;
    t.def = target_unit ? target_unit->root : nullptr;
    t.constraints = constraints(&s);
    if (!t.def) {
      t.kind = TypeKind::Json;
      return t;
    }
    // A definition still being built contains this reference: the schema contains itself. Its
    // struct is held through rr::Box (type_of unboxes the containers that allow an incomplete
    // type within one unit); another unit's is declared ahead instead of included.
    t.boxed = building_.count(def.name) > 0;
    auto& deps = t.boxed ? u.boxed_depends : u.depends;
    if (target_unit != &u && std::find(deps.begin(), deps.end(), target_unit) == deps.end())
      deps.push_back(target_unit);
    return t;
  }

  Unit* definition_unit(const OpenApiDefinition& def) {
    if (auto it = def_units_.find(def.name); it != def_units_.end()) return it->second;
    auto [segments, last] = split_definition(def.name);
    const std::string ns = join_ns(root_ns_or(opts_, "k8s"), segments);
    Unit* u = new_unit(ns, file_stem(last), origin_);
    def_units_[def.name] = u;
    u->object_kinds = def.gvks;
    building_.insert(def.name);  // until drained: a reference back here closes a cycle
    auto facts = kind_facts_.find(def.name);
    if (!def.kind.empty() && facts != kind_facts_.end()) {
      KindInfo k;
      k.group = def.group;
      k.version = def.version;
      k.kind = def.kind;
      k.plural = facts->second.plural;
      // The API server's singular resource name is the lowercased kind ("configmap", not "config_map").
      k.singular = def.kind;
      for (auto& c : k.singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      k.list_kind = def.kind + "List";
      k.namespaced = facts->second.namespaced;
      k.has_status = facts->second.has_status;
      k.has_scale = facts->second.has_scale;
      k.verbs.assign(facts->second.verbs.begin(), facts->second.verbs.end());
      u->kind = k;
    }
    // Nested structs of this definition are drained before returning to the referrer.
    std::deque<Pending> saved;
    saved.swap(pending_);
    StructDef* root = new_struct(*u, *def.schema, definition_names_.at(def.name), true);
    root->is_root = u->kind.has_value();
    u->root = root;
    drain(*u);
    pending_.swap(saved);
    building_.erase(def.name);
    return u;
  }

  // A definition the runtime declares by hand (x-rrgen-cpp-type) or knows by name: references
  // use the runtime's type, and no unit is generated for it.
  static bool mapped(const OpenApiDefinition& def) {
    return !def.schema->rrgen.cpp_type.empty() || well_known_definition(def.name);
  }
  std::optional<TypeRef> mapped_definition(const std::string& name) const {
    if (auto it = definitions_.find(name); it != definitions_.end() && !it->second->schema->rrgen.cpp_type.empty()) {
      TypeRef t;
      t.kind = TypeKind::External;
      t.external = it->second->schema->rrgen.cpp_type;
      return t;
    }
    return well_known_definition(name);
  }

  void index_definitions(const InputSet& in) {
    for (const auto& doc : in.documents) {
      for (const auto& def : doc.definitions) {
        definitions_.try_emplace(def.name, &def);  // the first document defining a name wins
      }
    }
  }

  void build_openapi(const InputSet& in) {
    index_definitions(in);
    for (const auto& doc : in.documents) {
      origin_ = doc.location.file ? *doc.location.file : std::string();
      for (const auto& def : doc.definitions) {
        if (definitions_[def.name] != &def || mapped(def) || def.schema->properties.empty()) continue;
        definition_unit(def);
      }
    }
  }

 public:
  std::map<std::string, OpenApiKindPaths> kind_facts_;

 private:
  const SemaOptions& opts_;
  Diagnostics& diags_;
  Model model_;
  std::map<std::string, NameScope> scopes_;
  std::deque<Pending> pending_;
  StructureIds ids_;
  std::map<std::pair<const Unit*, int>, StructDef*> dedup_;
  std::map<std::string, EnumDef*> enums_;
  std::unordered_map<const Schema*, std::shared_ptr<const Constraints>> constraints_;
  std::map<std::string, const OpenApiDefinition*> definitions_;
  std::map<std::string, Unit*> def_units_;
  std::set<std::string> building_;  // definitions whose unit is being filled
  std::set<std::string> inlining_;
  std::set<std::string> reported_cycles_;
  std::map<const CrdVersion*, std::string> kind_names_;
  std::map<std::string, std::string> definition_names_;
  std::string origin_;

  // ---- --codec-only ------------------------------------------------------------------------------

  // One unit with a struct per x-rrgen-cpp-type definition, named as declared by hand in
  // opts_.codec_only_for ("rr/core/meta.hpp" -> meta_codec.cpp). Everything the structs refer
  // to must be the runtime's (mapped), so the codec needs nothing but that header.
  void build_codec_unit(const InputSet& in) {
    index_definitions(in);
    for (const auto& crd : in.crds)
      diags_.error(crd.location, "rrgen-extension", "--codec-only reads OpenAPI documents, not CRDs");
    Unit* u = nullptr;
    std::set<const StructDef*> declared;
    for (const auto& doc : in.documents) {
      for (const auto& def : doc.definitions) {
        const std::string& cpp = def.schema->rrgen.cpp_type;
        if (definitions_[def.name] != &def || cpp.empty()) continue;
        const auto sep = cpp.rfind("::");
        const std::string ns = cpp.substr(0, sep), name = cpp.substr(sep + 2);
        if (!u) {
          std::string stem = opts_.codec_only_for.substr(opts_.codec_only_for.find_last_of('/') + 1);
          stem = stem.substr(0, stem.rfind('.'));
          u = new_unit(ns, stem, doc.location.file ? *doc.location.file : std::string());
          u->path = stem + "_codec";
          u->declared_in = opts_.codec_only_for;
        } else if (ns != u->ns) {
          diags_.error(def.schema->rrgen.location, "rrgen-extension",
                       "x-rrgen-cpp-type '" + cpp + "' is not in namespace " + u->ns + " like the other hand-declared structs");
          continue;
        }
        scope_for(ns).reserve(name);
        declared.insert(new_struct(*u, *def.schema, name, true));
      }
    }
    if (!u) {
      diags_.error(Location{}, "rrgen-extension", "--codec-only: no definition carries x-rrgen-cpp-type");
      return;
    }
    drain(*u);
    // Only the hand-declared structs exist: an inline object would need a declaration too.
    for (const auto& d : u->structs)
      if (!declared.count(d.get()))
        diags_.error(d->location, "rrgen-extension", "an object with properties inside a hand-declared struct needs a definition of its own with x-rrgen-cpp-type");
  }
};

}  // namespace

Model build_model(const InputSet& inputs, const SemaOptions& options, Diagnostics& diags) {
  Builder b(options, diags);
  for (const auto& doc : inputs.documents)
    for (const auto& [name, facts] : doc.kinds) b.kind_facts_.try_emplace(name, facts);
  return b.run(inputs);
}

}  // namespace rrgen
