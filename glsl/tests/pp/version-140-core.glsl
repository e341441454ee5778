#version 140 core
