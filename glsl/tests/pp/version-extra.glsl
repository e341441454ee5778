#version 150 core extra
